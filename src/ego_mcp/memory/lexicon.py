"""Closed word lists the guard reads: who a memory is about, and verbs that flip an outcome.

An embedding scores "his grandmother taught him" and "his grandfather taught him" as the
same memory, and "I remembered to send it" as "I forgot to send it". Both are small,
closed classes of words, so they are listed here rather than learnt. Words in one entry
are interchangeable (``mom``/``mother``); words in different entries are different people.
Japanese needs no list of people: its nouns come from the dictionary (``japanese.py``).
"""

from __future__ import annotations

PEOPLE: tuple[frozenset[str], ...] = tuple(
    frozenset(entry.split())
    for entry in (
        "mother mom mum mommy mummy",
        "father dad daddy",
        "parent parents",
        "grandmother grandma granny",
        "grandfather grandpa",
        "grandparent grandparents",
        "sister sisters",
        "brother brothers",
        "sibling siblings",
        "son sons",
        "daughter daughters",
        "child children kid kids",
        "aunt",
        "uncle",
        "cousin cousins",
        "niece",
        "nephew",
        "wife",
        "husband",
        "spouse partner",
        "girlfriend",
        "boyfriend",
        "fiancé fiancée fiance fiancee",
        "friend friends buddy pal",
        "neighbour neighbor neighbours neighbors",
        "roommate flatmate housemate",
        "colleague colleagues coworker coworkers co-worker teammate teammates",
        "manager boss supervisor",
        "customer customers",
        "teacher teachers instructor instructors tutor coach",
        "student students pupil pupils",
        "doctor doctors physician",
        "dentist",
        "nurse",
        "vet veterinarian",
        "landlord landlady",
        "clerk cashier assistant",
        "waiter waitress",
        "classmate classmates",
        "stranger strangers",
    )
)

OPPOSITES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(one.split()), frozenset(other.split()))
    for one, other in (
        ("remember remembers remembered remembering", "forget forgets forgot forgotten"),
        ("win wins won winning", "lose loses lost losing"),
        ("pass passes passed", "fail fails failed failing"),
        ("accept accepts accepted", "reject rejects rejected decline declined"),
        ("succeed succeeds succeeded success", "fail fails failed failure"),
        ("like likes liked love loved enjoy enjoyed", "dislike disliked hate hated"),
        ("arrive arrives arrived", "leave leaves left depart departed"),
        ("open opens opened", "close closes closed shut"),
        ("agree agrees agreed", "disagree disagrees disagreed"),
        ("found", "lost"),
        ("early", "late"),
        ("better", "worse"),
        ("more", "less fewer"),
        ("勝つ", "負ける"),
        ("覚える", "忘れる"),
        ("成功", "失敗"),
        ("合格", "落第"),
        ("入選", "落選"),
        ("好き", "嫌い"),
        ("増える", "減る"),
        ("間に合う", "遅れる"),
    )
)


def people(words: set[str]) -> dict[int, set[str]]:
    """Entry number -> the words of that entry among ``words`` (lower-cased)."""
    found: dict[int, set[str]] = {}
    for number, entry in enumerate(PEOPLE):
        present = words & entry
        if present:
            found[number] = present
    return found


def flipped(old: set[str], new: set[str]) -> tuple[str, str] | None:
    """A pair of opposite words, one only in ``old`` and the other only in ``new``."""
    for one, other in OPPOSITES:
        for before, after in ((one, other), (other, one)):
            lost = (old & before) - new
            gained = (new & after) - old
            if lost and gained:
                return min(lost), min(gained)
    return None
