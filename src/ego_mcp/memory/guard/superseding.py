"""What a new memory corrects in an older one (``corrects``): the same fact with one fact
of one kind replaced, a number, a time, a person, a place or the outcome, read on the
guard's judgement of the two texts once the marks of a correction, the report of how
the diarist heard it and what a denial carries with it are set aside."""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise

from ego_mcp.memory.guard.analysis import read
from ego_mcp.memory.guard.corrections import (
    denied_phrases,
    tells_of_another_time,
    without_correction_marks,
)
from ego_mcp.memory.guard.dates import MONTHS, WEEKDAYS
from ego_mcp.memory.guard.evidence import (
    CORE_ROLES,
    facts,
    reasons_turned,
    reworded_each,
    unmatched,
)
from ego_mcp.memory.guard.judgement import Verdict, judge, too_long
from ego_mcp.memory.guard.reading import (
    ABILITY,
    APPROXIMATELY,
    FIRST_PERSON,
    HEARSAY,
    NEGATIVE_POLARITY,
    REPORTED,
    UNNAMED_DOER,
    Reading,
    Word,
)
from ego_mcp.memory.guard.spelling import respelled, spelled_out
from ego_mcp.memory.guard.wordnet import (
    WordNet,
    hears,
    is_animate,
    is_conveyance,
    is_person,
    is_physical,
    is_place,
    is_relative,
    says,
    way_of,
    wordnet,
)

# The kinds of fact ``corrects`` names.
CORRECTION_KINDS = frozenset({"number", "time", "person", "place", "name", "outcome"})


def corrects(existing: str, new: str, days_apart: int = 0) -> str | None:
    """The kind of fact ``new`` replaces in ``existing`` when it otherwise says the same
    (a correction): a number, a time, a person, a place or another name for another, or
    the outcome turned (passed / failed, will come / won't come; was cancelled because of
    the rain / went ahead despite the rain). None when it says
    anything else besides (another role, qualifier, order or word: "too", "also" and
    "later" say it is another time), replaces facts of two kinds (ran 5 km on Monday /
    7 km on Thursday: more likely another time), adds or leaves out a fact, or is no
    different; and when either text places itself by the day it was written (today,
    yesterday, 今日) and the two were written ``days_apart`` days apart."""
    if too_long(existing, new):
        return None
    kind = _corrected_kind(existing, new, days_apart)
    if kind is not None:
        return kind
    # A correction may come with its reason in a sentence of its own (the train leaves at
    # 8:40; Master had misread the ticket): the sentence that replaces the fact is the
    # correction, if the others tell no value of their own.
    sentences = _sentences(new)
    if not 2 <= len(sentences) <= REASON_SENTENCES or tells_of_another_time(new, existing):
        return None  # a longer text tells more than a fact and why it was wrong
    kinds = [_corrected_kind(existing, sentence, days_apart) for sentence in sentences]
    told = [k for k in kinds if k is not None]
    if len(told) != 1:
        return None
    rest = [read(s) for s, k in zip(sentences, kinds, strict=True) if k is None]
    return told[0] if not any(r.numbers or r.when for r in rest) else None


# The most sentences a correction with its reason is read in: the fact, and why the older
# memory had it wrong.
REASON_SENTENCES = 3
# Where a sentence or a clause a semicolon or a dash sets apart ends: a full stop before
# a capital (not 4.2, 8:40, a title's: Mr. Sato, nor the hour's before the day it is
# on: 8 p.m. Friday), a semicolon, a dash between spaces, 。, ! or ?.
SENTENCE_END = re.compile(
    r"(?<=[;。!?！？])\s*|(?<=[a-z0-9)]\.)(?<!Mr\.)(?<!Ms\.)(?<!Dr\.)(?<!Mrs\.)(?<!St\.)"
    rf"(?!(?<=[ap]\.m\.)\s+(?i:{'|'.join(WEEKDAYS)}|{'|'.join(MONTHS)})\b)\s+(?=[A-Z])"
    r"|\s+[—–]\s+"
)


def _sentences(text: str) -> list[str]:
    """The sentences of ``text``; a sentence that is only a mark of correction (a marker,
    Correction. 訂正。, or the diarist owning up to a slip, 勘違いしていた。) opens the
    sentence after it, which it marks."""
    found: list[str] = []
    marker = ""
    for sentence in (p.strip() for p in SENTENCE_END.split(text.strip())):
        if not sentence:
            continue
        if not without_correction_marks(sentence, ""):
            marker = f"{marker}{sentence}{'' if sentence.endswith('。') else ' '}"
            continue
        found.append(marker + sentence)
        marker = ""
    return [*found, marker.strip()] if marker else found


def _corrected_kind(existing: str, new: str, days_apart: int) -> str | None:
    unmarked_old = without_correction_marks(existing, new, correcting=False)
    old = read(respelled(spelled_out(unmarked_old, new), new))
    unmarked = without_correction_marks(new, existing)
    fresh = read(respelled(spelled_out(unmarked, existing), existing))
    old, fresh = _as_corrected(old, fresh)
    marked = unmarked != new.strip()  # ``marked_as_correction``, read once
    # Owning up to a slip says something was wrong, not what: unlike a marker or a
    # denial, it lets the text leave out only words, never a value or a name (I misread
    # the map: Aya ran 8 km / Aya ran 5 km on Monday is another run).
    said = without_correction_marks(new, existing, correcting=False) != new.strip()
    if marked and _another_party(old, fresh):
        return None
    if said and not THIRD_PERSON.search(new):  # the denied phrase's too (not his wife)
        old = _without_names_left_out(old, fresh)
    turned = reasons_turned(old, fresh)
    if turned:  # the voice of an event told otherwise is the other telling's own
        old, fresh = _without_unnamed_doer(old), _without_unnamed_doer(fresh)
    verdict, found = judge(old, fresh, unsaid_doers=False)
    rest = [line for line in found if line not in turned]
    if verdict is not Verdict.DISTINCT or (len(found) != 1 and not turned):
        return None
    if tells_of_another_time(new, existing) or tells_of_another_time(existing, new):
        return None
    if days_apart and any(s.value.startswith("rel:") for s in (*old.when, *fresh.when)):
        return None  # "today" of two days is no one day
    if turned:
        return "outcome" if _happened_in_spite(old, fresh, rest) else None
    denied = denied_phrases(new, existing)
    return _replaced_fact(old, fresh, found[0], (marked, said), denied)


# A pronoun for someone other than the diarist: a name the older memory gives may be
# another person's than the one it stands for (Aya's party / Actually, his party).
THIRD_PERSON = re.compile(r"(?i)\b(?:he|she|his|her|hers|him|they|their|them)\b|彼")


def _another_party(old: Reading, new: Reading) -> bool:
    """Where a text that says it corrects may leave the older memory's words out, the
    one it cannot: whoever or whatever holds a role the diarist fills in the new text
    instead (マスターの電車は8時40分に出る / 私の電車は9時10分に出る。時刻表を見間違えた;
    部長の飛行機 / 私の飛行機, whether or not the glossary knows 部長 for a person)."""
    mine = {w.role for w in new.words if w.key == FIRST_PERSON and w.role}
    mine -= {w.role for w in old.words if w.key == FIRST_PERSON}
    left_out = unmatched(old.words, new.words)
    return any(w.role in mine and w.pos in ("n", "") for w in left_out if w.key != FIRST_PERSON)


def _without_names_left_out(old: Reading, new: Reading) -> Reading:
    """The older reading without the names a text that says it corrects leaves out, of
    a kind it names none of (Master's dentist appointment is at 3 / Actually, the
    dentist appointment is at 4): a correction retold in fewer words. A name of a kind
    it does name is the fact it replaces (in Okinawa / in Hokkaido). A name whose role
    the diarist has in the new text is not left out: that tells the diarist's own deed or
    thing (Ken ran 5 km / Actually, I ran 8 km; Ken's flight is at 7 / Actually, my
    flight is at 11); nor is the older memory's subject where the new text names no
    subject (ケンは月曜日に5キロ走った / 実は月曜日に8キロ走った: who ran is unsaid)."""
    named = {w.name for w in unmatched(new.words, old.words) if w.name}
    diarist = {w.role for w in new.words if w.key == FIRST_PERSON}
    diarist -= {w.role for w in old.words if w.key == FIRST_PERSON}
    kept = diarist if any(w.role == "subject" for w in new.words) else diarist | {"subject"}
    if "subject" in diarist:
        kept |= {""}  # a name the parse left without a role may be the doer (Aya swam)
    gone = {
        id(w)
        for w in unmatched(old.words, new.words)
        if w.name and w.name not in named and w.role not in kept
    }
    return replace(old, words=tuple(w for w in old.words if id(w) not in gone))


def _replaced_fact(
    old: Reading,
    fresh: Reading,
    found: str,
    marks: tuple[bool, bool],
    denied: list[str],
) -> str | None:
    """The kind of the one fact ``found`` says differs, if it is a fact replaced and all
    else is the same or reworded; or, where the new text says it corrects (``marks``:
    marked in any way, and ``said`` so by a marker or a denial), only leaves words out (a
    correction retold in fewer words: ルイとの飲み会、実は土曜日の夜だった), a value or a
    name only where said so. A word it adds beside the fact replaced is another deed or
    thing (Actually, Ken swam 2 km), marked or not."""
    left_values = (
        facts("number", old.numbers, fresh.numbers)[1] or facts("time", old.when, fresh.when)[1]
    )
    marked, said = marks  # said so by a marker or a denial, not only a slip owned up to
    if left_values and not said:
        return None  # a value left out beside the one replaced: more likely another time
    added = [w for w in unmatched(fresh.words, old.words) if w.key != FIRST_PERSON]
    left_out = [w for w in unmatched(old.words, fresh.words) if w.key != FIRST_PERSON]
    kind = found.partition(": ")[0]
    deed_turned = _deed_turned(old, fresh)
    thing, replaced = _thing_for_thing(kind, added, left_out, marked, denied, deed_turned)
    if thing == TWO_FACTS:
        return None
    if kind == "negation" and _another_party_denied(added, left_out, deed_turned):
        return None  # another person and the deed denied: his brother came, his sister didn't
    denial = kind in ("words", "negation")
    told_otherwise = _denied_in_other_words(added, left_out) if denial else set()
    if kind == "negation" and thing == "person" and not deed_turned:
        # One relative for its opposite, and nothing else opposed: 娘さんだった / 息子さん
        # だった; not Ken's grandfather is tall / Ken's grandmother is short.
        others = [(n, o) for n in added for o in left_out if n.opposes(o)]
        if any(id(n) not in replaced or id(o) not in replaced for n, o in others):
            return None
        kind = thing
    else:
        told = _kind_told(found, (thing, denied), (added, left_out), bool(told_otherwise))
        if told is None:
            return None
        kind = told
    opposed = {id(w) for n in added for o in left_out if n.opposes(o) for w in (n, o)}
    if opposed and kind in ("number", "time"):
        return None  # a value and an opposite beside it: two facts (ended at 2 / the start at 1)
    opposed |= replaced | told_otherwise
    if kind == "outcome":
        opposed |= _circumstances_of_denied(old, fresh, left_out)
        opposed |= _circumstances_of_denied(fresh, old, added)
    opposed |= _possession_told(old, fresh, left_out) | _possession_told(fresh, old, added)
    # Beside the thing a denial names, a name is a fact of its own (Rome, not Paris, with
    # his sister: the person changed too); elsewhere the judgement told the names apart.
    named_apart = bool(replaced) and bool(denied)
    rest_added = [
        w
        for w in added
        if not ((w.name and not named_apart) or id(w) in opposed or w.key == COPULA)
    ]
    rest_left = [w for w in left_out if not ((w.name and not named_apart) or id(w) in opposed)]
    if marked and not said and any(_whose_or_what(w, fresh) for w in rest_left):
        return None  # owned up to a slip: Aya's daughter's recital / Aya's recital, 約束した
    return kind if (marked and not rest_added) or _nothing_else(rest_added, rest_left) else None


def _kind_told(
    found: str,
    named: tuple[str | None, list[str]],
    unmatched_words: tuple[list[Word], list[Word]],
    told_otherwise: bool,
) -> str | None:
    """The kind of fact the one difference ``found`` replaces, given the thing the new
    text names in place of another (``_thing_for_thing``) and the phrases it denies; None
    when it is no fact replaced: a value added, another verb denied."""
    kind, _, detail = found.partition(": ")
    thing, denied = named
    added, left_out = unmatched_words
    if kind in ("number", "time"):
        return None if " → " not in detail or detail.startswith("—") else kind  # added
    if kind == "negation" and thing is not None and denied:
        return thing  # opposites that are things, one denied: his brother, not his sister
    if kind == "negation" and _verb_for_verb(added, left_out) and not told_otherwise:
        return None  # another verb denied, no way of doing the affirmed one
    if kind == "negation" or told_otherwise:
        return "outcome"
    if thing is not None:
        return thing
    if kind not in ("person", "place", "name") or not _replaced(kind, added, left_out):
        return None
    return kind


def _whose_or_what(word: Word, fresh: Reading) -> bool:
    """A word a text may not leave out on the strength of a slip owned up to alone: a
    predicate (promised to pay 5,000 / paid 3,000), or an owner where the new text names
    another owner of the same thing (Aya's daughter's recital / Aya's recital; マスター
    の歯医者の予約 / 歯医者の予約, with no owner, may be Master's; a name left out is read
    apart, ``_without_names_left_out``)."""
    if word.pos == "v":
        return True
    return word.role == "owner" and any(
        w.role == "owner" and w.owns == word.owns and w.key != word.key for w in fresh.words
    )


def _another_party_denied(added: list[Word], left_out: list[Word], deed_turned: bool) -> bool:
    """Opposite things (a brother, a sister; upstairs, downstairs) where the deed is also
    denied in one text and affirmed in the other: two facts, whoever did it."""
    things = any(
        n.opposes(o) for n in added for o in left_out if n.pos == o.pos and n.pos in ("n", "r")
    )
    return things and deed_turned


def _deed_turned(old: Reading, fresh: Reading) -> bool:
    """A predicate (a verb, an adjective: 好きだ / 好きではない) affirmed in one text and
    denied in the other, in other words too (arrived / didn't come), whatever the other
    text's parse made of it (his father smokes, parsed as a noun / his mother doesn't
    smoke)."""
    return any(
        w.negated != v.negated
        and {w.pos, v.pos} & {"v", "a"}
        and (w.key == v.key or (w.pos == v.pos and w.same_word(v)))
        for w in old.words
        for v in fresh.words
    )


TWO_FACTS = "two facts"


def _thing_for_thing(
    kind: str,
    added: list[Word],
    left_out: list[Word],
    marked: bool,
    denied: list[str],
    deed_turned: bool,
) -> tuple[str | None, set[int]]:
    """Where the one difference is of words, a person, a place, a name or opposites
    (``kind``), the thing the new text names in place of another and its kind, with the
    ids of both things' words: a place for a place (at Aya's apartment / at the office; a
    name that owns no place moved is a person or a place of its own), one relative for
    another (お父さん / お兄さん), or what a denial names and what is said instead (at
    the bookstore, not the ramen shop; his brother, not his sister). ``TWO_FACTS`` for a
    place and a person at once; None when no thing is named for another."""
    moved = (
        _place_for_place(added, left_out, marked) if kind in ("words", "place", "name") else set()
    )
    places = {w.key for w in added + left_out if id(w) in moved}
    if kind == "name" and not all(w.owns in places for w in added + left_out if w.name):
        moved = set()
    # One relative for another; for their opposite too (daughter / son), where no deed is
    # denied in one text and affirmed in the other (his brother came / his sister didn't).
    relatives = kind == "words" or (kind == "negation" and not deed_turned)
    someone_else = _relative_for_relative(added, left_out) if relatives else set()
    if moved and someone_else:
        return TWO_FACTS, set()
    if moved:  # with the words of the place a denial names (駅のベンチではなく)
        return "place", moved | _said_instead(added, left_out, denied)[1]
    if someone_else:
        return "person", someone_else
    if kind in ("words", "person", "place", "name", "negation"):
        return _said_instead(added, left_out, denied)  # opposites too: his brother, not his sister
    return None, set()


def _said_instead(
    added: list[Word], left_out: list[Word], denied: list[str]
) -> tuple[str | None, set[int]]:
    """The kind of the fact a correction denies by name (``denied``: ", not his cousin
    Rui" beside "Master's cousin Rui", 高橋先生じゃなくて), a person, a place or a
    name, and the ids of its words among those the older text alone has and of the new
    text's own words in their place (``_same_slot``, with the words that modify them and
    the names that own them: at Aya's apartment, not the office). (None, no ids) when
    the denial names none of the older words, nothing stands in their place, or the thing
    is of none of those kinds (an animal, a tool)."""
    said = " ".join(denied)
    tokens = set(re.findall(r"\w+", said.lower()))
    things = [w for w in left_out if w.pos == "n" or w.name]
    named = [w for w in things if w.surface.lower() in tokens or (w.reading and w.surface in said)]
    heads = [w for w in added if (w.pos == "n" or w.name) and any(_same_slot(w, n) for n in named)]
    keys = {h.key for h in heads}
    around = [w for w in added if w not in heads and (w.modifies in keys or w.owns in keys)]
    instead = heads + around
    if not named or not heads:
        return None, set()
    kind = _kind_of_thing(named + heads)
    return (kind, {id(w) for w in named + instead}) if kind else (None, set())


def _kind_of_thing(words: list[Word]) -> str | None:
    """A place (a place's name, a noun WordNet files as a place, or a thing a preposition
    of place governs: at the dry cleaner's), a person (a person's name, a noun of a
    person), a name of neither, or None (an animal, a thing: no fact of these kinds)."""
    net = wordnet()
    if net is None:
        return None
    if any(
        w.name == "place"
        or w.preposition in LOCATIVE
        or (not w.name and w.preposition in WHERE_OR_HOW)  # in Go, in Rust: no place
        or (not w.name and any(is_place(net, e) for e in w.english))
        for w in words
    ):
        return "place"
    if any(w.name == "person" or (not w.name and any(map(is_person, w.english))) for w in words):
        return "person"
    return "name" if any(w.name for w in words) else None


def _same_slot(first: Word, second: Word) -> bool:
    """One place in the clause: one core role (a passive's agent is its subject, whatever
    the preposition), or one role after one preposition (not a word with neither); in
    Japanese, also none in one text (a cleft's focus: 置き忘れたのはパン屋のレジだった)."""
    if first.role == second.role and first.role in CORE_ROLES:
        return True
    if first.role == second.role and first.preposition == second.preposition:
        return bool(first.role or first.preposition)  # no role nor preposition: unplaced
    return bool(first.reading and second.reading) and not (first.role and second.role)


def _nothing_else(rest_added: list[Word], rest_left: list[Word]) -> bool:
    """Whether the words besides the fact replaced tell nothing else: none, or each new
    one a rewording of an old one. Leaving a word out is no safer than adding one: the
    last train, the old apartment, on weekdays each pick out another thing or time, and
    "I ate 3 cookies" / "there were 10 cookies" tell two numbers, not one corrected."""
    if not rest_added and not rest_left:
        return True
    return bool(rest_added) and bool(rest_left) and reworded_each(rest_left, rest_added)


POSSESSION = "have"
COPULA = "be"  # "the flight is at 11" tells no more than "the flight at 9"


def _possession_told(reading: Reading, other: Reading, own: list[Word]) -> set[int]:
    """The id of "have" among ``own`` where the other text makes its subject the owner of
    its object instead (Master has an appointment at 3 / Master's appointment is at
    4:30): the possession is told either way."""
    owners = {w.key for w in other.words if w.role == "owner"}
    subjects = {w.key for w in reading.words if w.role == "subject" and w.head == POSSESSION}
    return {id(w) for w in own if w.key == POSSESSION and w.pos == "v" and subjects & owners}


def _circumstances_of_denied(affirming: Reading, denying: Reading, own: list[Word]) -> set[int]:
    """The ids of the words among ``own`` (the affirming text's alone) that tell where or
    how a deed the other text denies was done (renewed the licence at the police station
    / forgot to renew it): a denied deed has no place or manner to keep. Not its doer or
    what it was done to, nor a name."""
    denied = [w for w in denying.words if w.pos == "v" and w.negated]
    done = {
        w.key
        for w in affirming.words
        if w.pos == "v" and not w.negated and any(w.same_word(d) for d in denied)
    }
    return {id(w) for w in own if w.head in done and w.role not in CORE_ROLES and not w.name}


def _denied_in_other_words(added: list[Word], left_out: list[Word]) -> set[int]:
    """One event affirmed in one text and denied in the other, told with a verb that is
    a way of doing the denied one in a sense WordNet gives it (finished all of his food /
    did not eat any: eat up, one sense of finish, is a way of eating; walked to the
    station / didn't go there): the ids of the two verbs, or none. Never the other way
    round: going is no walking denied (went to the gym / didn't walk there)."""
    net = wordnet()
    pair = _verb_for_verb(added, left_out)
    if net is None or pair is None:
        return set()
    denied, affirmed = sorted(pair, key=lambda w: not w.negated)
    if any(way_of(net, a, d) for a in affirmed.english for d in denied.english):
        return {id(affirmed), id(denied)}
    return set()


def _verb_for_verb(added: list[Word], left_out: list[Word]) -> tuple[Word, Word] | None:
    """The one verb in place of another, one of them denied, if that is what differs."""
    verbs = [(o, n) for o in left_out for n in added if o.pos == n.pos == "v"]
    if len(verbs) != 1 or verbs[0][0].negated == verbs[0][1].negated:
        return None
    return verbs[0]


def _as_corrected(old: Reading, new: Reading) -> tuple[Reading, Reading]:
    """Both readings without the qualifiers a correction drops along with the fact it
    replaces: a report either text has (誕生日は7月12日だと聞いた, then 実は7月21日だった:
    what was heard, then found out), an inability beside a denial (will come / won't be
    able to come: not able to come is not coming), an implicative verb (locked the door /
    forgot to lock it), the quantity a denial carries (ate some / didn't eat any) and an
    estimate of a number replaced (about 12 / 20)."""
    old, new = _without_report(old, new), _without_report(new, old)
    old, new = _without_inability(old, new), _without_inability(new, old)
    old, new = _without_implicative(old, new), _without_implicative(new, old)
    old, new = _without_estimate(old, new), _without_estimate(new, old)
    return _without_quantity_denied(old, new), _without_quantity_denied(new, old)


def _without_estimate(reading: Reading, other: Reading) -> Reading:
    """The reading without its estimate of a number the other text replaces (about 12
    guests came, then 20 came; 30人くらい, then 18人): the estimate goes with the number."""
    if sorted(s.value for s in reading.numbers) == sorted(s.value for s in other.numbers):
        return reading
    return replace(reading, qualifiers=reading.qualifiers - {APPROXIMATELY})


def _without_report(reading: Reading, other: Reading) -> Reading:
    """The reading without the report the other text lacks: a quoting frame (と聞いた,
    と言っていた), hearsay (だそうだ, らしい) or a verb of saying (Master said, told me).
    How the diarist came to know a fact is no fact corrected: 誕生日は7月12日だと聞いた,
    then 実は7月21日だった; 体重は62キロだったと言っていた, then 実は64キロだったそうだ."""
    reports = {
        q for q in reading.qualifiers - other.qualifiers if q.startswith(REPORTED) or q == HEARSAY
    }
    theirs = {w.key for w in other.words}
    saying = {w.key for w in _reporting(reading) if w.key not in theirs}
    # The teller and the one told go with the telling (Master told me…), unless the
    # other text names them too, other than as its own teller (Master said… / …,
    # Master corrected).
    their_saying = {w.key for w in _reporting(other)}
    named = {w.key for w in other.words if not _tells_or_told(w, their_saying)}
    kept = tuple(
        w
        for w in reading.words
        if w.key not in saying and not (_tells_or_told(w, saying) and w.key not in named)
    )
    return replace(reading, words=kept, qualifiers=reading.qualifiers - reports)


def _reporting(reading: Reading) -> list[Word]:
    """The English verbs that frame a clause of ``reading`` as said (said, told) or as
    heard from someone (heard from Master that…; hearing a sound, or hearing with no one
    it came from, frames none). Japanese frames (と言っていた, と聞いた) are qualifiers."""
    return [
        w
        for w in reading.words
        if w.qualifier
        and w.pos == "v"
        and (
            says((w.key,))
            or (
                hears((w.key,)) and any(v.head == w.key and v.role == "from" for v in reading.words)
            )
        )
    ]


def _tells_or_told(word: Word, saying: set[str]) -> bool:
    return word.head in saying and word.role in ("subject", "object", "from")


def _without_implicative(reading: Reading, other: Reading) -> Reading:
    """The reading without the implicative verbs the other text lacks: what they tell
    of their complement is read already (forgot to lock the door: did not lock it), and
    the forgetting goes with the fact it replaces (locked the door / forgot to lock it)."""
    theirs = {w.key for w in other.words if w.implicative}
    kept = tuple(w for w in reading.words if not w.implicative or w.key in theirs)
    return replace(reading, words=kept)


# The quantifiers of an affirmed fact a denial with "any" denies: none of it, against
# all, every or some of it (全部: "all").
AFFIRMED_QUANTITIES = frozenset({"all", "some", "every"})


def _without_quantity_denied(reading: Reading, other: Reading) -> Reading:
    """The reading without the quantity a denial and its affirmation each carry: "any"
    in a text that denies (didn't eat any of it, refused to eat any) and "all", "every"
    or "some" in the text that affirms (ate all of it): none of it contradicts each, so
    the quantity goes with the fact replaced."""
    mine = reading.denies()
    if mine == other.denies():
        return reading
    denied = reading if mine else other
    if NEGATIVE_POLARITY not in denied.qualifiers:
        return reading
    if mine:
        return replace(reading, qualifiers=reading.qualifiers - {NEGATIVE_POLARITY})
    kept = tuple(
        w for w in reading.words if not (w.qualifier and AFFIRMED_QUANTITIES & set(w.english))
    )
    return replace(reading, words=kept, qualifiers=reading.qualifiers - AFFIRMED_QUANTITIES)


def _without_unnamed_doer(reading: Reading) -> Reading:
    return replace(reading, qualifiers=reading.qualifiers - {UNNAMED_DOER})


def _happened_in_spite(old: Reading, new: Reading, rest: list[str]) -> bool:
    """Whether two texts that give one reason, as the cause in one and in spite of it in
    the other, tell one event with its outcome turned: the event is denied in one (was
    not held because of the rain / was held despite it), or it is told with another
    predicate (was cancelled because of the rain / went ahead despite it). The event is
    one when a noun outside the reason that is no person or animal (the festival, the flea
    market, 出張: what is held, called off or gone to) is in both, and no participant is
    in one only: what a person did in spite of a reason and what the reason did to them
    may both be true (was tired because of the meeting / went to the gym despite it). A
    reason turned over an unchanged event (went ahead because of / despite the rain)
    says why, not what happened; a denial inside the reason (because it rained /
    although it didn't) turns the reason, not the event."""
    participants = ("subject", "object")
    added = [w for w in unmatched(new.words, old.words) if not w.reason]
    new_ones = {id(w) for w in added}
    shared = [w for w in new.words if w.pos == "n" and not w.reason and id(w) not in new_ones]
    if all(_a_being(w) for w in shared):
        return False  # no thing or event of the old text's in the new one's
    if rest:
        return len(rest) == 1 and rest[0].startswith("negation:") and _event_denied(old, new)
    left_out = [w for w in unmatched(old.words, new.words) if not w.reason]
    if any(w.role in participants or w.name for w in added + left_out):
        return False
    told_otherwise = any(w.pos == "v" for w in added + left_out)
    return told_otherwise and bool(added) and bool(left_out)


def _a_being(word: Word) -> bool:
    """A person or an animal: a name that is no place's (Ken, Biscuit), the diarist, or
    a noun whose first sense is one (Master, the dog; マスター by its first gloss)."""
    return bool(
        word.name in ("person", "name")
        or word.key == FIRST_PERSON
        or word.animate
        or (word.english and is_animate(word.english[0]))
    )


def _event_denied(old: Reading, new: Reading) -> bool:
    """A word of the event, not of the reason, said to hold in one text and not in the
    other."""
    return any(
        not word.reason and same and all(o.negated != word.negated for o in same)
        for word in new.words
        for same in [[o for o in old.words if o.same_word(word) and not o.reason]]
    )


def _without_inability(reading: Reading, other: Reading) -> Reading:
    if not reading.denies() or ABILITY not in reading.qualifiers - other.qualifiers:
        return reading
    return replace(reading, qualifiers=reading.qualifiers - {ABILITY})


def _place_for_place(added: list[Word], left_out: list[Word], marked: bool) -> set[int]:
    """One place where the other text has another, in the same role (at the library / at
    the café, near the station / in the shopping mall, 大阪の本社 / 神戸の支社): a common
    noun WordNet files as a place, or two in a row it lists as one (shopping_mall), or a
    physical thing a preposition of place governs, and in a text that says it corrects
    ``marked``, a means of transport "at", "on" or "in" governs (on the bus / Actually, at
    the café). The ids of the words, or none."""
    net = wordnet()
    if net is None:
        return set()
    where = LOCATIVE | WHERE_OR_HOW if marked else LOCATIVE
    return _one_for_one(_places(net, added, where), _places(net, left_out, where))


def _relative_for_relative(added: list[Word], left_out: list[Word]) -> set[int]:
    """One relative where the other text has another (お父さん / お兄さん, Ken's sister /
    Ken's cousin), in one role, or in Japanese where one text gives the person none (the
    focus of a cleft: 散歩に行ってくれたのは、お兄さんだった): the ids of the two words, or
    none. Only relatives: two other nouns for people may name one person (the boss / the
    manager), and a name another noun (Sato / the boss)."""
    net = wordnet()
    if net is None:
        return set()
    return _one_for_one(_relatives(net, added), _relatives(net, left_out))


def _one_for_one(new_ones: list[tuple[Word, ...]], old_ones: list[tuple[Word, ...]]) -> set[int]:
    """The ids of the words of one thing the new text names where the old one names
    another in the same role (each thing's words, its head last), or none when there is
    not exactly one such pair."""
    pairs = [
        (old, new)
        for new in new_ones
        for old in old_ones
        if _same_role(new[-1], old[-1])  # the head noun's
    ]
    if len(pairs) != 1:
        return set()
    return {id(w) for thing in pairs[0] for w in thing}


def _same_role(first: Word, second: Word) -> bool:
    """One role, or, in Japanese, none in one text: a cleft's focus has none (…のは
    お兄さんだった, …のは図書館だった), where an English word with none is the object of
    "of" or "about"."""
    if first.role == second.role:
        return True
    return bool(first.reading and second.reading) and not (first.role and second.role)


def _relatives(net: WordNet, words: list[Word]) -> list[tuple[Word, ...]]:
    return [
        (w,)
        for w in words
        if w.pos == "n" and not w.name and w.english and is_relative(net, w.english[0])
    ]


def _places(net: WordNet, words: list[Word], where: frozenset[str]) -> list[tuple[Word, ...]]:
    """The common nouns of places among ``words`` (names are told apart as names): each
    one with its modifiers, or a compound of two in a row."""
    compounds = [
        (first, second)
        for first, second in pairwise(words)
        if second.pos == "n" and not second.name and net.offsets(f"{first.key}_{second.key}", "n")
        and is_place(net, f"{first.key}_{second.key}")
    ]  # fmt: skip
    in_compounds = {id(w) for compound in compounds for w in compound}
    # A noun WordNet files as a place, or a thing an English preposition that only tells
    # where governs, with the word the parse says modifies it (the ramen shop); a place
    # that modifies another is part of that one's name, no place of its own.
    single = [
        (*_modifiers_before(words, at), w)
        for at, w in enumerate(words)
        if not w.name
        and id(w) not in in_compounds
        and (
            (w.pos == "n" and any(is_place(net, e) for e in w.english))
            or (w.preposition in LOCATIVE and any(is_physical(net, e) for e in w.english))
            or (w.preposition in where and any(is_conveyance(net, e) for e in w.english))
        )
    ]
    modifying = {id(w) for place in single for w in place[:-1]}
    return [*compounds, *(place for place in single if id(place[-1]) not in modifying)]


# English prepositions that tell where a thing is and nothing else (under the bed, inside
# the basket): "in", "on" and "at" tell as often how or with what (in pencil, on the
# piano, at a glance).
LOCATIVE = frozenset({"under", "beneath", "inside", "behind", "beside", "outside"})
# In a text that says it corrects the place (left it on the bus / Actually, at the café),
# these tell where a means of transport is the place (not on the laptop, on the piano).
WHERE_OR_HOW = frozenset({"in", "on", "at"})


def _modifiers_before(words: list[Word], at: int) -> tuple[Word, ...]:
    """The word before the noun at ``at`` when the parse says it modifies that noun (the
    ramen shop: ramen, which the tagger may take for a verb)."""
    before = words[at - 1] if at else None
    if before is None or before.name or before.modifies != words[at].key:
        return ()
    return (before,)


def _replaced(kind: str, added: list[Word], left_out: list[Word]) -> bool:
    """A name of ``kind`` one text has where the other has another; names replaced
    several on each side, in one slot (Aya's twins are Ren and Rin / Ken's twins are Sho
    and Sae: the owner and the twins tell another family, not one name corrected)."""
    new_names = [w for w in added if w.name == kind]
    old_names = [w for w in left_out if w.name == kind]
    if len(new_names) > 1 and len(old_names) > 1:  # a cleft may move a lone name's role
        return len({w.role for w in new_names + old_names}) == 1
    return bool(new_names) and bool(old_names)
