"""The guard's judgement: whether a new text is a restatement of a memory (refused), only
leaves out or rewords its detail (a possible duplicate), or tells another fact (similar,
differs in ...), from the two texts' readings (``analysis``) and the evidence they give
(``evidence``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from ego_mcp.memory.guard import analysis
from ego_mcp.memory.guard.analysis import read
from ego_mcp.memory.guard.comparison import standards_traded
from ego_mcp.memory.guard.evidence import (
    CORE_ROLES,
    DIRECTIONS,
    common_nouns,
    complement_forms,
    compounds_turned,
    conflicts_by_opposites,
    converse,
    facts,
    frames_as_words,
    names_reordered,
    negations,
    number_and_degree,
    qualifiers,
    reasons_turned,
    reworded,
    role_conflicts,
    sequence,
    shown,
    told_as_done,
    unmatched,
    unnamed_doers,
)
from ego_mcp.memory.guard.japanese import proper_nouns, spoken, surfaces
from ego_mcp.memory.guard.nominal_frames import framed_as_nouns
from ego_mcp.memory.guard.opposition import caused_converse, converse_antonyms
from ego_mcp.memory.guard.placement import focus_moved, particles_opposed, tense_changed
from ego_mcp.memory.guard.quantity import denial_of_every_case
from ego_mcp.memory.guard.reading import FIRST_PERSON, Reading, Word
from ego_mcp.memory.guard.spelling import read_by_initials, respelled, spelled_out, symbols_named
from ego_mcp.memory.guard.swaps import (
    describers_traded,
    modifiers_traded,
    owners_traded,
    pairs_swapped,
)
from ego_mcp.memory.japanese import is_japanese

# The roles in which a name is a party to the event (met Aya, with Aya, from Aya).
PARTY_ROLES = CORE_ROLES | {"to", "from", "with", "by"}


class Verdict(Enum):
    DUPLICATE = "duplicate"
    POSSIBLE = "possible duplicate"
    DISTINCT = "distinct"


@dataclass(frozen=True)
class Comparison:
    """How a new text stands to a memory, and what differs (``what: detail`` lines)."""

    verdict: Verdict
    differences: tuple[str, ...] = ()

    @property
    def duplicate(self) -> bool:
        return self.verdict is Verdict.DUPLICATE


def judge(old: Reading, new: Reading, unsaid_doers: bool = True) -> tuple[Verdict, tuple[str, ...]]:
    """The verdict on ``new`` beside ``old``, and what differs. With ``unsaid_doers``, a
    person ``old`` names as a doer whom ``new`` leaves unwritten is detail left out, not
    another person (a correction cannot be drawn so: the diarist may be the doer)."""
    things = common_nouns(old, new)  # read once: what a number or a time may be bound to
    (numbers, fewer_numbers), (times, fewer_times) = (
        facts("number", old.numbers, new.numbers, things),
        facts("time", old.when, new.when, things),
    )
    hard = numbers + times
    added, left_out, told_as_words = _unmatched_words(old, new)
    unwritten = {
        id(w) for w in left_out if unsaid_doers and not added and _subject_left_unwritten(w, new)
    }
    for kind in ("person", "place", "name"):
        names = [w for w in added + left_out if w.name == kind and id(w) not in unwritten]
        if names:
            hard.append(f"{kind}: {shown(names)}")
    opposites = [(o, n) for n in added for o in left_out if n.opposes(o) and _comparable(o, n)]
    conflicts = role_conflicts(old, new)
    across = conflicts_by_opposites(old, new, opposites)
    swapped = (
        bool(across)
        and converse(conflicts + across)
        and all(converse_antonyms(o, n) for o, n in opposites if o.pos == n.pos == "v")
    )
    turned, turned_across, told_from_the_other_side = _told_from_the_other_side(
        old, new, (added, left_out), conflicts + across
    )
    if turned:
        opposites, across, swapped = opposites + turned, across + turned_across, True
    paired = {id(w) for pair in opposites for w in pair}
    # A doer that differs across two opposed verbs, which no converse explains, is a
    # difference too (Master didn't lend it to Emi / Emi borrowed Master's); the other
    # roles may differ by the verbs' grammar alone (会議に出席しなかった / 会議を欠席した).
    doers = [c for c in across if "subject" in (c[0].role, c[1].role)]
    differing = conflicts + doers if not swapped else []
    if differing:
        roles = {c[0].role for c in differing} | {c[1].role for c in differing}
        where = ", ".join(f"{n.surface} ({_role_moved(o, n)})" for o, n in differing)
        hard.append(f"{'direction' if roles <= DIRECTIONS else 'roles'}: {where}")
    gone, new_qualifiers, paired = _qualifier_words((old, left_out), (new, added), paired)
    # None were happy / all were unhappy: the quantities are the denial's (``quantity``).
    every_case, every_word = denial_of_every_case(old, new, gone, new_qualifiers, opposites)
    gone = [w for w in gone if id(w) not in every_word]
    new_qualifiers = [w for w in new_qualifiers if id(w) not in every_word]
    hard += qualifiers(old, new, gone, new_qualifiers, told_as_words | every_case)
    hard += reasons_turned(old, new)
    hard += told_as_done(old, new)
    hard += sequence(old, new) + particles_opposed(old, new) + focus_moved(old, new)
    hard += tense_changed(old, new)
    if not differing and not swapped:  # differing roles, or a converse, say it already
        hard += names_reordered(old, new)
    # Describers traded and things paired otherwise are one swap, told once.
    hard += compounds_turned(old, new) + (
        describers_traded(old, new)
        or modifiers_traded(old, new)
        or owners_traded(old, new)
        or pairs_swapped(old, new)
    )
    hard += unnamed_doers(old, new) + standards_traded(old, new)
    hard += negations(old, new, opposites, swapped)
    hard += number_and_degree(old, new)
    if hard:
        return Verdict.DISTINCT, tuple(hard)
    skipped = {id(w) for w in gone + new_qualifiers} | paired | every_word
    added = [w for w in added if not w.name and id(w) not in skipped]
    left_out = [w for w in left_out if (not w.name or id(w) in unwritten) and id(w) not in skipped]
    if added and left_out:
        return _one_for_another(left_out, added)
    if added:
        return Verdict.DISTINCT, (f"adds: {shown(added)}",)
    fewer = [
        *fewer_numbers,
        *fewer_times,
        *([f"leaves out: {shown(left_out)}"] if left_out else []),
        *complement_forms(old, new),
    ]
    if told_from_the_other_side:
        # WordNet's cause and entailment pointers suggest a converse; alone they prove
        # none (push entails move, whose antonym is stand still): never a refusal,
        # unless the verbs' grammar vouches for it (``caused_converse``).
        fewer.append(f"wording: {told_from_the_other_side} (the other side)")
    if fewer:
        return Verdict.POSSIBLE, tuple(fewer)
    return Verdict.DUPLICATE, ()


def _qualifier_words(
    older: tuple[Reading, list[Word]], newer: tuple[Reading, list[Word]], paired: set[int]
) -> tuple[list[Word], list[Word], set[int]]:
    """The qualifier words the older text has and the new one lacks, and those the new
    one adds (each text with the words it has and the other lacks), but the ones
    ``paired`` already and frames the other text tells as nouns (decided to quit / his
    decision to quit: one frame, told as a verb and as its noun, now ``paired`` too). A
    qualifier one text has and the other lacks is a fact; one worded two ways (plans /
    intends) is wording, as any other word."""
    (old, left_out), (new, added) = older, newer
    gone = [w for w in left_out if w.qualifier and id(w) not in paired]
    fresh = [w for w in added if w.qualifier and id(w) not in paired]
    paired = paired | framed_as_nouns((old, gone), (new, added))
    paired |= framed_as_nouns((new, fresh), (old, left_out))
    gone = [w for w in gone if id(w) not in paired]
    fresh = [w for w in fresh if id(w) not in paired]
    if gone and fresh:
        return [], [], paired
    return gone, fresh, paired


def _told_from_the_other_side(
    old: Reading,
    new: Reading,
    unmatched_words: tuple[list[Word], list[Word]],
    conflicts: list[tuple[Word, Word]],
) -> tuple[list[tuple[Word, Word]], list[tuple[Word, Word]], str]:
    """A verb and the one its other party would use (taught / learned, beat / lost),
    where the parties trade places: the verb pairs, the conflicts across them, and the
    wording line when the converse is one WordNet's pointers only suggest ("" when it is
    vouched for, ``caused_converse``). Where the parties keep their places, the two verbs
    are two words: nothing is returned."""
    added, left_out = unmatched_words
    turned = [
        (o, n)
        for n in added
        for o in left_out
        if n.pos == o.pos == "v"
        and n.converse_of(o)
        and not (n.opposes(o) and converse_antonyms(o, n))  # not sell / buy, but くれた / もらった
    ]
    across = conflicts_by_opposites(old, new, turned)
    traded = conflicts + across
    if not across or not converse(traded, objects_turn=True):
        return [], [], ""
    if caused_converse(old, new, turned, traded):
        return turned, across, ""
    return turned, across, ", ".join(f"{o.surface} → {n.surface}" for o, n in turned)


def _unmatched_words(old: Reading, new: Reading) -> tuple[list[Word], list[Word], frozenset[str]]:
    """The words ``new`` adds and those it leaves out, the diarist's "I" aside, and the
    frames one text tells as a word of the other (``frames_as_words``), which are neither."""
    added = [w for w in unmatched(new.words, old.words) if w.key != FIRST_PERSON]
    left_out = [w for w in unmatched(old.words, new.words) if w.key != FIRST_PERSON]
    told_as_words, framed = frames_as_words(old, new, left_out, added)
    added = [w for w in added if id(w) not in framed]
    left_out = [w for w in left_out if id(w) not in framed]
    return added, left_out, told_as_words


def _one_for_another(gone: list[Word], added: list[Word]) -> tuple[Verdict, tuple[str, ...]]:
    """Words in place of others: a rewording WordNet relates is a possible duplicate, and
    other words a difference; one verb for another, affirmed in one text and denied in
    the other, is a denial (walked to the station / didn't go there), never a rewording
    to merge."""
    change = f"{shown(gone)} → {shown(added)}"
    related = reworded(gone, added)
    one_verb = len(gone) == len(added) == 1 and gone[0].pos == added[0].pos == "v"
    if related and one_verb and gone[0].negated != added[0].negated:
        return Verdict.DISTINCT, (f"negation: {change}",)
    if related:
        return Verdict.POSSIBLE, (f"wording: {change}",)
    return Verdict.DISTINCT, (f"words: {change}",)


def _subject_left_unwritten(word: Word, new: Reading) -> bool:
    """A person the older text names as the subject of a verb the new one tells with no
    subject written and no other party named, nor in the passive without its doer
    (Master renewed his licence / Renewed his licence; マスターは住民票を取った / 住民票を
    取った): the new text leaves the doer unsaid, as a diary does, which is detail left
    out, not another person. The diarist's "I" the parse needed written in is no subject
    written (``Reading.diarist_written_in``)."""
    if word.name != "person" or word.role != "subject" or not word.head:
        return False
    if word.head in new.unnamed_doer:
        return False  # the window was broken: by someone the text does not name
    written = [w for w in new.words if not (new.diarist_written_in and w.key == FIRST_PERSON)]
    if any(w.key == FIRST_PERSON or _party_named(w) for w in written):
        return False  # 私も風邪をひいた; アヤと会った: the diarist's, or another's, deed
    told = any(w.key == word.head and w.pos == "v" for w in written)
    return told and not any(w.role == "subject" and w.head == word.head for w in written)


def _party_named(word: Word) -> bool:
    """A person the text names, or a name or a noun for a person or an animal in a
    party's role (met Aya, 母と作った)."""
    return word.name == "person" or (
        (word.name == "name" or word.animate) and word.role in PARTY_ROLES
    )


def _role_moved(old: Word, new: Word) -> str:
    """How a word's role changed: its role (object → subject), or the verb whose role it
    is, where that role is one (subject of 提案 → subject of 反対)."""
    if old.role in CORE_ROLES and old.role == new.role and old.head != new.head:
        return f"{old.role} of {old.head} → {new.role} of {new.head}"
    return f"{old.role or '—'} → {new.role or '—'}"


def _comparable(first: Word, second: Word) -> bool:
    """Of one part of speech, or a verb and an adjective (the participle of "was closed"
    is read as a verb, "open" as an adjective), or a word and the same word with a
    negating prefix, whatever each is used as (合格した / 不合格だった)."""
    if first.pos == second.pos or {first.pos, second.pos} == {"v", "a"}:
        return True
    return first.key[1:] == second.key or second.key[1:] == first.key


# The longest text read word by word: a parse of 20,000 characters takes seconds, and the
# Japanese analyser reads at most 49,149 bytes. Longer texts are not vouched for.
LONGEST_COMPARED = 2_000
# Digits, letters and signs, commas among them (2、3人 / 23人): what Sudachi reads one by
# one or not at all (not spaces, nor the full stop or exclamation a text may end with).
NOT_JAPANESE = re.compile(r"[^\sぁ-ゖァ-ヺー一-龥々。．.!！]")
TOO_LONG = f"length: over {LONGEST_COMPARED:,} characters, not compared word by word"


def too_long(existing: str, new: str) -> bool:
    return max(len(existing), len(new)) > LONGEST_COMPARED


def differences(existing: str, new: str) -> tuple[Verdict, tuple[str, ...]]:
    """What ``new`` says beside ``existing``, and the verdict it leads to. Texts that are
    one only when an acronym is read by its initials alone (HR / human resources) are a
    possible duplicate: the guard cannot vouch for the reading (LA / Los Altos); so is a
    text too long to read word by word, unless the two are written the same."""
    if too_long(existing, new):
        if " ".join(existing.split()) == " ".join(new.split()):
            return Verdict.DUPLICATE, ()
        return Verdict.POSSIBLE, (TOO_LONG,)
    verdict, found = _judged(existing, new, vouched=True)
    guessed = read_by_initials(existing, new) + read_by_initials(new, existing)
    loose = _judged(existing, new, vouched=False)[0] if guessed else Verdict.DISTINCT
    if verdict is Verdict.DISTINCT and loose is not Verdict.DISTINCT:
        return Verdict.POSSIBLE, (f"wording: {', '.join(guessed)}",)
    read_alike = _read_alike(existing, new) if verdict is Verdict.DISTINCT else None
    if read_alike is not None:
        # A slip of the input method (冷蔵庫の中見) or a homophone (科学 / 化学): the
        # guard cannot tell which, so the two are flagged, never refused.
        return Verdict.POSSIBLE, (read_alike,)
    return verdict, found


def _read_alike(existing: str, new: str) -> str | None:
    """The wording line of two Japanese texts, written apart, that read aloud the same,
    with the same digits, letters and signs (Sudachi reads 12 as 1 and 2, and no sign:
    1〜2時間 / 12時間, $500 / ¥500), where what differs is not two names the dictionary
    lists (伊藤 / 伊東, two families); None for any other pair."""
    if not (is_japanese(existing) and is_japanese(new)):
        return None
    if NOT_JAPANESE.findall(existing) != NOT_JAPANESE.findall(new):
        return None
    if spoken(existing) != spoken(new):
        return None
    mine, theirs = surfaces(existing), surfaces(new)
    gone, added = [w for w in mine if w not in theirs], [w for w in theirs if w not in mine]
    names = proper_nouns(existing) | proper_nouns(new)
    if all(word in names for word in gone + added):
        return None
    return f"wording: {', '.join(gone)} → {', '.join(added)}"


def _judged(existing: str, new: str, vouched: bool) -> tuple[Verdict, tuple[str, ...]]:
    old = respelled(symbols_named(spelled_out(existing, new, vouched), new), new)
    new_read = respelled(symbols_named(spelled_out(new, existing, vouched), existing), existing)
    return judge(read(old), read(new_read))


def read_ahead(texts: Sequence[str]) -> None:
    """Read ``texts`` ahead of comparing them (their parses in one batch), those short
    enough to be compared word by word."""
    analysis.read_ahead([text for text in texts if len(text) <= LONGEST_COMPARED])


def compare(existing: str, new: str, similarity: float, threshold: float) -> Comparison:
    """A duplicate when at least ``threshold`` similar and the texts are equivalent."""
    if similarity < threshold:
        return Comparison(Verdict.DISTINCT)
    verdict, found = differences(existing, new)
    return Comparison(verdict, found)


@lru_cache(maxsize=1024)
def mergeable(first: str, second: str) -> Comparison:
    """Whether consolidation may propose merging two memories: when the guard calls them
    the same, or one only leaves out what the other says; never when a fact differs.
    Kept for the pairs judged lately: each consolidation judges a window's closest pairs,
    most of them the last run's (as ``analysis.read`` keeps texts, in this process only)."""
    forward, backward = differences(first, second), differences(second, first)
    if forward[0] is Verdict.DUPLICATE:
        return Comparison(Verdict.DUPLICATE)
    for verdict, found in (forward, backward):
        if verdict is Verdict.POSSIBLE:
            return Comparison(verdict, found)
    return Comparison(Verdict.DISTINCT, forward[1])
