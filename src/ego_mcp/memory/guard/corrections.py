"""The words that mark a sentence as a correction, which say nothing of the fact itself.

A correction is often marked: a discourse marker before it ("actually", "it turns out",
"after all", 実は, やっぱり) or the old value denied beside the new one ("at the café,
not the library", "新宿ではなく池袋で"). Both belong to grammar's closed classes; the
guard's reading of what a correction replaces (``guard.corrects``) reads both texts
without them, so that a marker is not taken for a fact of its own. A denial is read past
only when what it denies is in the other text (", not the library" beside a memory of
the library), never a denial of its own (", not unless Aya asks").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.dates import find_when
from ego_mcp.memory.guard.japanese.analyser import morphemes
from ego_mcp.memory.guard.japanese.sequence import additive
from ego_mcp.memory.guard.japanese.words import FIRST_PERSON_WORDS, english_of
from ego_mcp.memory.guard.numbers import english_value
from ego_mcp.memory.guard.wordnet import faculty_of_knowing, mistakes, of_knowing

if TYPE_CHECKING:
    from sudachipy import Morpheme

_JAPANESE_LETTER = "一-龥々ァ-ヶー"
# Discourse markers of a correction: "actually" and "in fact" anywhere, the others at the
# start of the sentence or of a clause; a Japanese one only where no kanji or katakana
# run goes on before it (果実は is no 実は).
MARKERS = re.compile(
    r"(?i)\b(?:actually|in fact)\b,?\s*"
    r"|(?:^|(?<=[.;!?]\s))(?:(?:as )?it turns out(?: that)?|"
    r"turns out(?: that)?|after all|as it happens|correction\s*[:.]|"
    r"I was wrong(?: about [^,.:;!?]+?)?(?:\s*[,:;]|\s+[—–](?=\s))"
    r"|I had it wrong(?:\s*[,:;]|\s+[—–](?=\s)))[,\s]*"
    r"|,?\s+after all(?=[.;!?]|$)"
    # The one who set it right, named as the sentence opens or closes (Ken corrected me:
    # …; …, Ken admitted.)
    r"|^(?:[A-Z][a-z]+|[Hh]e|[Ss]he|I) corrected (?:that\s+|(?:(?:me|himself|herself)\s*)?:\s*)"
    r"|,\s*(?:[A-Z][a-z]+|he|she) (?:corrected|admitted)(?: me)?(?=[.!?]|$)"
    rf"|(?<![{_JAPANESE_LETTER}])(?:実は|実際は|本当は|やっぱり|やはり|結局)、?"
    r"|^訂正\s*[:：。]\s*"
)
# The old value denied beside the new one: ", not the library." / "新宿ではなく、",
# "会社じゃなくて"; a number's point or comma is no end (", not 5.2", ", not 4,200").
DENIED_ENGLISH = re.compile(
    r",\s*not\s+(?P<denied>(?:[^,.;!?]|(?<=\d)[.,](?=\d))+)(?:,(?=\s)|(?=[.;!?]|$))"
)
DENIED_JAPANESE = re.compile(r"(?:ではなく|じゃなく)て?、?")
# What may open a phrase denied in English and is no part of what it names: "not his
# cousin Rui" beside "Master's cousin Rui" denies the cousin the other text names.
DETERMINER = re.compile(r"(?i)^(?:the|a|an|his|her|their|my|our|your|its)\s+")
# The parts of speech a Japanese phrase denied is made of, read back from ではなく: nouns
# with their prefixes and suffixes (お父さん, 佐藤さん, 3月18日), a word the analyser takes
# for an adverb inside a name (わんわんハウス); and の between nouns joins them
# (鴻巣の免許センター, ``_phrase_starts``).
DENIED_PARTS = frozenset({"名詞", "接頭辞", "接尾辞", "副詞", "形状詞"})


# Adverbs of addition and sequence: a text that has one the other lacks tells of another
# time or another person besides, not of the same fact corrected.
ANOTHER_TIME = re.compile(
    r"(?i)\b(?:too|also|again|later|then|as well|once more|another time|afterwards)\b"
    r"|再び|もう一度|また|後で|今度は|その後"
    r"|(?<=[日朝夜方週月年])(?:に)?も(?![うっの])"  # 今日の夕方も, 土曜日にも: that time too
)


def tells_of_another_time(text: str, other: str) -> bool:
    """``text`` has an adverb of addition or sequence that ``other`` lacks, or more of
    the Japanese particle of addition (アヤも来た beside ケンが来た: Aya came too)."""
    theirs = {match.lower() for match in ANOTHER_TIME.findall(other)}
    if any(match.lower() not in theirs for match in ANOTHER_TIME.findall(text)):
        return True
    return _additions(text) > _additions(other)


def _additions(text: str) -> int:
    if not re.search(f"[{_JAPANESE_LETTER}ぁ-ゖ]", text):
        return 0
    found = morphemes(text)
    return sum(additive(found, at) for at in range(len(found)))


def marked_as_correction(text: str, other: str) -> bool:
    """``text`` says it corrects: a discourse marker of correction, the value of
    ``other`` denied beside its own (", not the library", 会社じゃなくて), or the
    diarist owning up to a slip (I misread the programme, 勘違いしていた)."""
    return without_correction_marks(text, other) != text.strip()


def without_correction_marks(text: str, other: str, correcting: bool = True) -> str:
    """``text`` without the marks of a correction of ``other`` (or by ``other``): its
    discourse markers, the values of ``other`` it denies and, where ``text`` is the
    one correcting, the diarist's admission of a slip (``_admissions``; the older
    memory's own slip is a fact it tells)."""
    unmarked = MARKERS.sub("", text)
    for start, end in reversed(_admissions(unmarked) if correcting else []):
        unmarked = unmarked[:start] + unmarked[end:]
    unmarked = DENIED_ENGLISH.sub(
        lambda match: "" if _denies_the_others(match, other) else match[0], unmarked
    )
    for start, end in reversed(_japanese_denials(unmarked, other)):
        unmarked = unmarked[:start] + unmarked[end:]
    return unmarked.strip()


def denied_phrases(text: str, other: str) -> list[str]:
    """The phrases of ``other`` that ``text`` denies beside what it says instead (", not
    his cousin Rui", 高橋先生じゃなくて): the fact a correction says it replaces."""
    unmarked = MARKERS.sub("", text)
    english = [
        match["denied"].strip()
        for match in DENIED_ENGLISH.finditer(unmarked)
        if _denies_the_others(match, other)
    ]
    japanese = [
        _before_the_mark(unmarked[start:end]) for start, end in _japanese_denials(unmarked, other)
    ]
    return english + japanese


def _japanese_denials(text: str, other: str) -> list[tuple[int, int]]:
    """Where each ではなく / じゃなくて of ``text`` that denies a phrase of ``other``
    begins its phrase (``_denied_start``) and where the mark ends, in order. The phrase
    is read within ``WINDOW`` characters on either side of the mark: the analyser reads
    no text past its limit, and a phrase denied is short."""
    found = []
    for match in DENIED_JAPANESE.finditer(text):
        before = text[max(0, match.start() - WINDOW) : match.start()]
        after = _phrase_length(morphemes(text[match.end() : match.end() + WINDOW]))
        start = _denied_start(before, other, after)
        if start is not None:
            found.append((match.start() - len(before) + start, match.end()))
    return found


WINDOW = 64


def _before_the_mark(span: str) -> str:
    """The phrase denied, without the mark after it."""
    return DENIED_JAPANESE.split(span, maxsplit=1)[0]


def _denies_the_others(match: re.Match[str], other: str) -> bool:
    """ ", not X" where ``other`` names X, as whole words, past a determiner too ("not his
    cousin Rui" beside "Master's cousin Rui"); not a denial of the text's own."""
    denied = match["denied"].strip().lower()
    said = other.lower()
    return any(
        phrase and _has_phrase(said, phrase) for phrase in (denied, DETERMINER.sub("", denied))
    )


def _has_phrase(text: str, phrase: str) -> bool:
    """``text`` has ``phrase`` as whole words ("son" is not in "season")."""
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


def _denied_start(before: str, other: str, parallel: int) -> int | None:
    """Where the phrase ends ``before`` that a ではなく after it denies: of the noun
    phrases ending there that ``other`` holds as written, the one nearest in length to
    the phrase that replaces it (``parallel`` words: what is denied and what is said
    instead stand in parallel, 高橋先生じゃなくて中村先生, 今日新宿ではなく池袋で), the
    longer of two as near. None when ``other`` holds none: the denial is the text's own."""
    held = [
        (abs(words - parallel), -words, start)
        for start, words in _phrase_starts(before)
        if _held(before[start:], other)
    ]
    return min(held)[2] if held else None


def _phrase_starts(before: str) -> Iterator[tuple[int, int]]:
    """Where each noun phrase (``DENIED_PARTS``) ending ``before`` may open, nearest
    first, with how many words it has: not at a の or a suffix, and a unit goes with its
    number (68キロ, never キロ alone)."""
    found = morphemes(before) if before else ()
    start = len(before)
    for at in range(len(found) - 1, -1, -1):
        morpheme = found[at]
        part = morpheme.part_of_speech()[0]
        joins = morpheme.surface() == "の" and at < len(found) - 1
        if part not in DENIED_PARTS and not joins:
            return
        start -= len(morpheme.surface())
        if not (joins or part == "接尾辞" or (at > 0 and _number(found[at - 1].surface()))):
            yield start, len(found) - at


def _phrase_length(found: tuple[Morpheme, ...]) -> int:
    """How many words the noun phrase opening ``found`` has (past an opening bracket or
    comma: 、「ペットサロン花」)."""
    words = 0
    for at, morpheme in enumerate(found):
        part = morpheme.part_of_speech()[0]
        if part in DENIED_PARTS or (morpheme.surface() == "の" and words):
            words += 1
        elif not (part == "補助記号" and not words and at < 2):
            break
    return words


def _number(word: str) -> bool:
    return word[:1].isdigit()


def _held(words: str, other: str) -> bool:
    """``other`` has ``words``, a number whole (8キロ is not in 68キロ)."""
    if not _number(words):
        return words in other
    return re.search(rf"(?<![0-9.,]){re.escape(words)}", other) is not None


# A clause or sentence of the diarist owning up to a slip: I misread the programme, I
# misheard her, I mistook the date, I got the date wrong; its other words a few, with no
# name, no number and nothing of the diarist's own (I misread my ticket: the ticket's
# train is the diarist's). A clause set apart by a comma is none (In May, I misaddressed
# the invitations: what is left is no fact).
ADMISSION = re.compile(
    r"^(?:(?:[Aa]nd|[Bb]ut|[Ss]o)\s+)?I(?P<aux>\s+had|\s+must\s+have)?\s+"
    r"(?P<verb>[a-z]+)(?P<rest>(?:\s+[a-z'-]+){0,5})$"
)
# Words that make the clause no admission of a slip of the text's fact: the diarist's own
# thing (I misread my ticket, the table for us), a denial (I misread nothing).
NOT_ADMITTED = frozenset(
    {"my", "our", "mine", "ours", "myself", "us", "not", "nothing", "never", "none", "nobody"}
)
# What "I got ... wrong" took wrongly: a thing named as known (the date, it, that), not a
# tally (I got nearly everything wrong).
TAKEN_WRONGLY = frozenset({"the", "it", "that", "this"})
# What a clause is read within: the text between two marks of a sentence's or a clause's
# end, not a comma.
CLAUSE = re.compile(r"[^;:.!?—–。！？\n]+")
# Japanese words of a slip: a word of "wrong" (…違い, …違える, 間違い, 間違える) after a
# word of knowing or perceiving (勘違い, 思い違い, 記憶違い, 聞き違い, 見間違える,
# 読み違える; not 場違い, 入れ違い, 取り違える, 書き間違える, 乗り間違える: a place, a
# deed), the noun 間違い the diarist's own (私の間違いだった; 間違いだった alone is as
# often a regret, 間違えた a deed told before it: 渋谷駅で降りた。間違えた。), and 誤解
# with no object (母の気持ちを誤解していた is a judgement of a person).
WRONG = re.compile(r"(?:間違い|間違える|違い|違える)$")
MISUNDERSTANDING = "誤解"
LONE_SLIP = "間違い"
SLIP_WRITTEN = re.compile(r"違|誤解")
LONGEST_ADMISSION = 40  # characters: 同窓会の案内状の日付をすっかり読み違えていたらしい
# What a Japanese admission may hold beside its word of a slip: particles, auxiliaries
# (not a passive or a causative: 誤解された is another's slip), signs, the diarist
# (私の勘違い), the verbs that carry a noun or an aspect (する, いる; not ある: 誤解があった)
# and what was taken wrongly, common nouns before を (日付を勘違いしていた; no name and no
# number).
SLIP_GRAMMAR = frozenset({"助詞", "補助記号", "接頭辞"})
# A question (勘違いだったのか) or a tendency (勘違いしやすい, しがち) owns up to no slip.
NO_SLIP_OWNED = frozenset({"か", "かな", "かしら", "易い", "勝ち", "がち", "そう"})
CARRYING_VERBS = frozenset({"為る", "居る", "仕舞う"})
# Auxiliaries that make it another's slip or none: a passive, a causative, a denial
# (勘違いしていなかった).
NO_SLIP_OF_MINE = frozenset({"れる", "られる", "せる", "させる", "ない", "ぬ", "ん"})


def _admissions(text: str) -> list[tuple[int, int]]:
    """Where each clause of ``text`` that admits the diarist's slip lies, with the mark
    that sets it apart: the one before it, or after it where it opens the text."""
    found = []
    for clause in CLAUSE.finditer(text):
        words = clause[0].strip()
        if text[clause.end() : clause.end() + 1] in ("?", "？"):
            continue  # a question admits nothing: I misread it?
        if not (_admits_in_english(words) or _admits_in_japanese(words)):
            continue
        start, end = clause.start(), clause.end()
        if text[:start].strip():
            start -= 1  # the mark before it: "; I had misread the programme."
        else:
            end += 1 if end < len(text) else 0  # the mark after it: "I misread the letter:"
        found.append((start, end))
    return found


def _admits_in_english(clause: str) -> bool:
    """I + a verb of a slip of knowing or perceiving (``mistakes``) and at most four
    words; or I + got or had with the thing it took wrongly, "... wrong" (I got the date
    wrong); with no number, no time (I miscounted last week: another occasion) and none
    of ``NOT_ADMITTED``."""
    match = ADMISSION.match(clause)
    if match is None or find_when(clause).units:
        return False
    readings = [(match["verb"], match["rest"].split())]
    if match["aux"] and match["aux"].split()[-1] == "had":  # had as the verb: I had it wrong
        readings.append(("had", [match["verb"], *match["rest"].split()]))
    for verb, rest in readings:
        if NOT_ADMITTED & set(rest) or any(english_value(word) is not None for word in rest):
            continue
        if mistakes(verb) and len(rest) <= ADMITTED_WORDS:
            return True
        if verb in ("got", "had") and rest[-1:] == ["wrong"] and rest[0] in TAKEN_WRONGLY:
            return len(rest) > 1
    return False


ADMITTED_WORDS = 4  # the words beside a slip's verb: "the statement from the bank"


def _admits_in_japanese(clause: str) -> bool:
    if len(clause) > LONGEST_ADMISSION or not SLIP_WRITTEN.search(clause):
        return False  # the analyser is asked only of a short clause with a word of a slip
    found = morphemes(clause)
    objects = [at for at, m in enumerate(found) if m.normalized_form() == "を"]
    slips = [at for at in range(len(found)) if _slip(found, at, bool(objects))]
    if not slips:
        return False
    stems = {at - 1 for at in slips if WRONG.fullmatch(found[at].normalized_form())}
    for at, morpheme in enumerate(found):
        part, form = morpheme.part_of_speech()[0], morpheme.normalized_form()
        if form in NO_SLIP_OWNED:
            return False
        if at in slips or at in stems or part in SLIP_GRAMMAR:
            continue
        if part == "接尾辞" and morpheme.part_of_speech()[1] == "名詞的":
            continue  # さん, たち
        if part == "助動詞" and form not in NO_SLIP_OF_MINE:
            continue
        if part == "動詞" and form in CARRYING_VERBS:
            continue
        if _the_diarist(morpheme) or _taken_wrongly(found, at, objects):
            continue
        return False
    return True


def _the_diarist(morpheme: Morpheme) -> bool:
    """私, 僕, 自分 (which the analyser takes for a noun)."""
    return morpheme.surface() in FIRST_PERSON_WORDS or (
        morpheme.part_of_speech()[0] == "代名詞"
        and morpheme.normalized_form() in FIRST_PERSON_WORDS
    )


def _slip(found: tuple[Morpheme, ...], at: int, with_object: bool) -> bool:
    """``found[at]`` is a word of a slip of knowing or perceiving: its own first
    part (勘 of 勘違い, 見 of 見間違える) or the word before a bare 違い or 間違える (記憶
    違い, 見 間違える) being one; 間違い the diarist's (私の間違い); 誤解 with no object."""
    form = found[at].normalized_form()
    if form == MISUNDERSTANDING:  # the diarist's: 誤解していた, 私の誤解; not 誤解だった
        done = at + 1 < len(found) and found[at + 1].normalized_form() == "為る"
        return not with_object and (done or _owned(found, at))
    ending = WRONG.search(form)
    if ending is None:
        return False
    stem = form[: ending.start()]
    if stem:
        return _of_knowing_japanese(stem)
    if at > 0 and found[at - 1].part_of_speech()[0] in ("名詞", "動詞"):
        return _of_knowing_japanese(found[at - 1].dictionary_form())  # 記憶 違い, 見 間違える
    return form == LONE_SLIP and _owned(found, at) and not with_object


def _owned(found: tuple[Morpheme, ...], at: int) -> bool:
    """The diarist's: 私の, 自分の before ``found[at]``."""
    return at > 1 and found[at - 1].surface() == "の" and _the_diarist(found[at - 2])


def _of_knowing_japanese(word: str) -> bool:
    """The word (or the stem of a compound, 聞き, 見) glosses as a verb of knowing or
    perceiving, or a noun of a faculty or process of knowing (記憶, 勘; not 型 or 解釈 of
    型違い, 解釈違い: a difference)."""
    analysed = morphemes(word)
    base = analysed[0].dictionary_form() if len(analysed) == 1 else word
    english = english_of(base, word)
    return bool(english) and (
        of_knowing(english[0]) or any(map(faculty_of_knowing, english[:GLOSSES_READ]))
    )


GLOSSES_READ = 3  # 記憶: memory (a thing remembered), recollection (the faculty)


def _taken_wrongly(found: tuple[Morpheme, ...], at: int, objects: list[int]) -> bool:
    """A common noun (no name, no number) of the phrase before a を: what the diarist
    took wrongly (案内のメールを見間違えていた, 曜日を勘違いしていた)."""
    part, kind = found[at].part_of_speech()[:2]
    if part != "名詞" or kind != "普通名詞":
        return False
    following = next((o for o in objects if o > at), None)
    if following is None:
        return False
    between = found[at + 1 : following]
    return all(m.part_of_speech()[0] == "名詞" or m.normalized_form() == "の" for m in between)
