"""What the guard reads a text as: its words with their roles, numbers and dates with
the slot they fill, its qualifiers and its negations. Each analyser (English, Japanese)
fills one ``Reading``; the judgement compares two. Data only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ego_mcp.memory.guard.frequency import graded, likelier_misspelt
from ego_mcp.memory.japanese import KANJI

FIRST_PERSON = "i"  # the diarist, written or implied ("Watched the sunset", 夕日を見た)
# The qualifier of a clause told as said, heard or thought (と聞いた) and of one framed as
# planned or intended (行く予定だ): each followed by the framing word.
REPORTED, FRAMED = "said:", "frame:"
HEARSAY = "hearsay"  # an auxiliary of hearsay (だそうだ, らしい)
IMPERATIVE = "imperative"  # a verb's imperative form (行け, 勉強しなさい): an order
ABILITY = "can"  # the modal of ability (can, could, is able to)
NEGATIVE_POLARITY = "any"  # any, and 一口も, 誰も: what a denial covers whole
# The two relations a reason bears to the event it is given for: its cause (because of the
# rain, 雨のせいで) and what it happened in spite of (despite the rain, 雨なのに).
BECAUSE, DESPITE = "because", "despite"
# A doer the text does not name: a passive without one (the window was broken, 財布が
# 盗まれた) or an indefinite one (someone broke it, 誰かが盗んだ).
UNNAMED_DOER = "someone"
# The qualifier of an estimate (about 8 hours, 8時間くらい): the first word of WordNet's
# sense of "about" a number has, as either reader names it.
APPROXIMATELY = "approximately"
PAST, NOW = "past", "now"  # the tenses a verb is told in (english/tense.py, japanese)
# Japanese states told with いる: now (住んでいる), past (住んでいた), and a deed done
# told as a state (書き終えている, もう帰っている), which is the past as the English
# perfect is.
STATE_NOW, STATE_PAST, DONE = "now (ている)", "past (ていた)", "past (ている)"


@dataclass(frozen=True)
class Focus:
    """A focusing word and what it stands at: the key of a word of the text (only Ken,
    only to the party: "party"; ケンだけ), or "" for the predicate (Ken only had one,
    which may be of anything after the verb); ``subject``: that word is the subject."""

    word: str
    of: str = ""
    subject: bool = False


NEGATING_PREFIXES = ("un", "non", "non-")  # of English adjectives


@dataclass(frozen=True)
class Word:
    """One content word as it stands in its sentence.

    ``role`` is who it is in the event (subject, object, recipient, from, to, with, than,
    owner, before, after...); ``bound`` is the subject of the clause it belongs to, so
    "Master likes tea, Ken coffee" binds tea to master. ``senses`` are synonym-set ids
    (WordNet's, Sudachi's groups): two words sharing one mean the same.
    """

    key: str
    surface: str
    pos: str = ""  # WordNet's letter (n v a r); "" for names and pronouns
    role: str = ""
    bound: str = ""
    head: str = ""  # the predicate its role is in (the verb's key)
    head_senses: frozenset[str] = frozenset()
    name: str = ""  # "person", "place" or "name" for a proper name
    senses: frozenset[str] = frozenset()
    opposites: frozenset[str] = frozenset()  # its antonyms, in English (WordNet's)
    converses: frozenset[str] = frozenset()  # a verb's other side, in English (teach: learn)
    english: tuple[str, ...] = ()  # the word in English: itself, or a Japanese one's glosses
    reading: str = ""  # Japanese, in katakana, long vowel dropped
    known: bool = True  # in the dictionary; a misspelling is not
    qualifier: bool = False  # it qualifies the fact (want to, used to, almost, いつも)
    negated: bool = False  # a predicate said not to hold (didn't forget, 覚えていなかった)
    preposition: str = ""  # the preposition whose object it is (in Kyoto: in), in English
    animate: bool = False  # a common noun for a person or an animal (Mom, the dog)
    owns: str = ""  # an owner's thing (Ken's dog, ケンの犬: dog)
    modifies: str = ""  # the noun a noun modifies (dog house: house), in English
    # English grammar's number and degree, where they are facts: "" where none is read.
    number: str = ""  # a counted noun's: "the one", "the many", "a one", "a many"
    graded: bool = False  # a comparative or superlative by its ending (harder, oldest)
    reason: str = ""  # BECAUSE or DESPITE in a reason given for the event; "" elsewhere
    implicative: bool = False  # tells whether its complement happened (forgot to lock)
    # The verb of the clause a verb or a noun frames (decided to quit, the decision to
    # quit, the intention of calling: "quit", "call"), in English; "" for none.
    frames: str = ""
    # The part of its sentence it stands in, counted from 1 (0: none read), parts cut
    # where a part of its own begins (the readers' ``_joins_parts``): milk in the coffee
    # | sugar in the tea, not Emi | and Ken at the station.
    part: int = 0

    def same_word(self, other: Word) -> bool:
        if self.key == other.key or (self.senses & other.senses):
            return True
        if self.reading and other.reading and _glossed_alike(self.english, other.english):
            return True  # two Japanese words with one meaning (近く / そば: "near", "vicinity")
        if (
            (self.name or other.name)
            and self.surface[:1].isupper()
            and other.surface[:1].isupper()
            and (
                (self.key + "s" == other.key and bool(other.modifies))
                or (other.key + "s" == self.key and bool(self.modifies))
            )
        ):
            # A possessive written without its apostrophe, where a possessive stands:
            # before a noun (Masters cousin). The Smiths, on their own, are a family.
            return True
        if self.reading and self.reading == other.reading and _kanji_agree(self.key, other.key):
            return True
        return self.misspells(other) or other.misspells(self)

    def misspells(self, other: Word) -> bool:
        """This word is no word of the dictionary, and one edit off ``other`` (a letter
        dropped, added, changed or two swapped: frist / first), two for a long word
        (reccomended / recommended), which is far more common (``frequency.py``); two
        real words never are (county / country)."""
        if self.known or not other.known or len(self.surface) < 4:
            return False
        mine, written = self.surface.lower(), other.surface.lower()
        if mine[:1] != written[:1] or edits(mine, written) > (1 if len(written) < 8 else 2):
            return False
        return likelier_misspelt(mine, written)

    def opposes(self, other: Word) -> bool:
        """The two are antonyms, as lemmas or as written (open / closed: "was closed" is
        read as the verb "close"), and share no meaning."""
        if self.prefix_negates(other) or other.prefix_negates(self):
            return True
        if set(self.english) & set(other.english):
            return False  # one meaning shared: いらっしゃる "come, go, be" / 来る "come"
        mine = self.opposites & {other.key, other.surface.lower(), *other.english}
        theirs = other.opposites & {self.key, self.surface.lower(), *self.english}
        if self.pos == other.pos == "a":
            # Each in a sense that stands for it: friendly and hostile are antonyms only
            # as troops are, hostile's second sense, not among friendly's first three.
            return bool(mine and theirs)
        return bool(mine or theirs)

    def prefix_negates(self, other: Word) -> bool:
        """This English adjective is the other word with a negating prefix (unlocked /
        locked, unsafe / safe): the prefix is grammar's, as 不 and 未 are. Not a verb's
        un-, which undoes a deed (unlocked the door, unpacked: not "didn't lock")."""
        return self.pos == "a" and any(
            mine == prefix + theirs
            for prefix in NEGATING_PREFIXES
            for mine in (self.key, self.surface.lower())
            for theirs in (other.key, other.surface.lower())
            if len(theirs) > 2
        )

    def undoes(self, other: Word) -> bool:
        """This English verb is the other with un-, which undoes its deed (unlock / lock,
        unpack / pack, untie / tie): not doing the one is not doing the other (didn't lock
        the door / unlocked the door). dis- mostly negates a verb instead (doesn't like /
        dislikes)."""
        return self.pos == other.pos == "v" and len(other.key) > 2 and self.key == "un" + other.key

    def contrary_of(self, other: Word) -> bool:
        """The two are antonyms that grade (``frequency.graded``): one may be denied and
        the other not hold (not hot, nor cold: warm). A prefix's negation is no such pair
        (not safe / unsafe)."""
        if self.prefix_negates(other) or other.prefix_negates(self):
            return False
        return self.pos == other.pos == "a" and any(map(graded, (*self.english, *other.english)))

    def converse_of(self, other: Word) -> bool:
        """The other party's verb for the same event (taught / learned, beat / lost)."""
        return bool(
            self.converses & {other.key, *other.english}
            or other.converses & {self.key, *self.english}
        )

    def same_head(self, other: Word) -> bool:
        """Both words fill a role of one predicate (or its synonym)."""
        if not self.head and not other.head:
            return True  # one predicate the analyser could not name (転勤する, アレルギーだ)
        return self.head == other.head or bool(self.head_senses & other.head_senses)


def edits(first: str, second: str) -> int:
    """The optimal string alignment distance (Damerau-Levenshtein without repeats)."""
    rows = [list(range(len(second) + 1))]
    for i, a in enumerate(first, 1):
        row = [i]
        for j, b in enumerate(second, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a != b))
            if i > 1 and j > 1 and a == second[j - 2] and first[i - 2] == b:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]


def _kanji_agree(first: str, second: str) -> bool:
    """Two spellings of one reading are one word when the kanji of one are among the
    other's (林檎 / りんご, 友だち / 友達); never two different kanji (橋 / 箸)."""
    mine, theirs = set(KANJI.findall(first)), set(KANJI.findall(second))
    return mine <= theirs or theirs <= mine


@dataclass(frozen=True)
class Slotted:
    """A value (a number, a length, a measure, a temporal unit; or a describing word, in
    ``Reading.described``) with the role it fills (from, to, before...), the word it is
    bound to (the flight at 9, the meeting at 11) and the part of its sentence."""

    value: str
    role: str = ""
    anchor: str = ""
    part: int = 0  # the part of its sentence it stands in, as a word's (``Word.part``)


class Pronoun(NamedTuple):
    """A pronoun of the third person: its role and predicate, what it owns (his
    manager: manager), and its gender ("m": he, him, his; "f": she, her, hers)."""

    role: str
    head: str
    owns: str
    gender: str


@dataclass(frozen=True)
class Reading:
    """A text as the guard reads it."""

    words: tuple[Word, ...] = ()
    numbers: tuple[Slotted, ...] = ()
    when: tuple[Slotted, ...] = ()
    qualifiers: frozenset[str] = field(default_factory=frozenset)
    negations: int = 0  # negations bound to no word of the text
    # A denial of every case, in English (none, never, nobody, no one, not one, not a
    # single); any, and 一度も, 誰も, read as the qualifier ``NEGATIVE_POLARITY``, tell it too.
    denies_every: bool = False
    sequence: tuple[str, ...] = ()  # the predicates in order, when the text tells a sequence
    # Deeds told in the passive with no doer (the window was broken), and deeds whose doer
    # is the diarist, written or implied (I broke the window, Broke the window): by verb.
    unnamed_doer: frozenset[str] = field(default_factory=frozenset)
    # The diarist's "I" was written in before the parse (``english.with_the_diarist``):
    # the text itself leaves its doer unsaid.
    diarist_written_in: bool = False
    diarist_did: frozenset[str] = field(default_factory=frozenset)
    # English prepositions and verb particles (up, inside, above), each with the word it
    # hangs from: no fact as words, but one when it stands for its WordNet antonym on
    # the same word (went up / went down).
    particles: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    focus: frozenset[Focus] = field(default_factory=frozenset)  # only Ken, ケンだけ
    # Main verbs (English) or each sentence's last predicate (Japanese) with the tense
    # it is told in (turns / turned, 行く / 行った: "now", "past").
    tenses: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    # What tells the subjects of clauses apart (the blue bike, the red one, room 204),
    # each with its clause's other party as ``anchor`` (belongs to Master: master), and a
    # copula's adjective with its subject (the car is black: car), in English.
    described: tuple[Slotted, ...] = ()
    # Where the Japanese reader cut its parts, by character (values take their part
    # from these: ``analysis``).
    part_breaks: tuple[int, ...] = ()
    # The numbers and times told with a comparison's standard (than last year, 去年のもの
    # より); None where the text compares nothing (``comparison``).
    standard: frozenset[str] | None = None
    # The parts a person's pronoun stands in (he, him, his), in English: where a name
    # stands in one text, a pronoun may stand in the other.
    pronouns: frozenset[Pronoun] = field(default_factory=frozenset)
    # Two events a text orders by "before" or "after" (前, 後): (the earlier predicate,
    # the later one), by key (ate before he showered, showered after eating: eat, shower).
    ordered: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    # Verbs completed by another verb, with the form it takes and the words as written
    # (stop, buy, "to", "stopped to buy"; stop, buy, "ing", "stopped buying"), in English.
    complements: frozenset[tuple[str, str, str, str]] = field(default_factory=frozenset)

    def denies(self) -> bool:
        """Whether the text denies anything: a negation, or a word said not to hold."""
        return bool(self.negations) or any(w.negated for w in self.words)


def _glossed_alike(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Two Japanese words whose glosses say they mean the same: two glosses shared, or the
    same glosses. One English word in common is too little: English words have many
    meanings (手紙 and 文字 are both "letter", 写真 and 絵 both "picture", 火事 and 火 both
    "fire")."""
    shared = set(mine) & set(theirs)
    return len(shared) >= 2 or (bool(shared) and set(mine) == set(theirs))
