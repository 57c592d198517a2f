"""A Japanese content word as the guard compares it: its normalised form, reading,
synonym groups, English glosses and their WordNet antonyms and converses, and whether it
is a name; and whether a verb is one of saying."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.adverbs import EMPHASIS, QUALIFYING_ADVERBS
from ego_mcp.memory.guard.glosses import glosses
from ego_mcp.memory.guard.japanese.analyser import katakana_given_name, morphemes
from ego_mcp.memory.guard.reading import FIRST_PERSON, Word
from ego_mcp.memory.guard.wordnet import ANTONYM, converses, is_animate, wordnet
from ego_mcp.memory.japanese import HIRAGANA_TO_KATAKANA

if TYPE_CHECKING:
    from sudachipy import Morpheme

ASPECT = frozenset(
    {"いる", "ある", "おく", "しまう", "居る", "有る", "置く", "仕舞う", "為る", "為さる", "てる",
     "とる", "ちゃう", "じゃう", "とく"}
)  # fmt: skip
FIRST_PERSON_WORDS = frozenset({"私", "わたし", "僕", "ぼく", "俺", "おれ", "あたし", "自分"})
NEGATING_PREFIXES = frozenset({"不", "非", "未", "無"})  # Sino-Japanese negation (接頭辞)
NAME_KINDS = {"人名": "person", "地名": "place"}


def content(m: Morpheme, prefix: str) -> Word | None:
    pos = m.part_of_speech()
    kind, sub = pos[0], pos[1]
    surface = m.surface()
    if kind == "代名詞":
        if surface in FIRST_PERSON_WORDS:
            return Word(key=FIRST_PERSON, surface=surface)
        return None
    if kind == "名詞" and sub in ("数詞", "助数詞可能") and pos[2] != "一般":
        return None
    if kind not in ("名詞", "動詞", "形容詞", "形状詞", "副詞"):
        return None
    if kind in ("動詞", "形容詞") and sub == "非自立可能" and m.normalized_form() in ASPECT:
        return None  # する, いる, ある on their own: tense and aspect, no fact
    key = prefix + m.normalized_form().rstrip("ー")
    wordnet_pos = {"名詞": "n", "動詞": "v", "形容詞": "a", "形状詞": "a", "副詞": "r"}[kind]
    # The analyser's reading picks among a written form's entries (夫: おっと, not つま);
    # it is the written word's own only where the word is not inflected.
    read_as = m.reading_form() if surface == m.dictionary_form() and not prefix else ""
    english = english_of(
        m.dictionary_form() if not prefix else key, m.normalized_form(), reading=read_as
    )
    reading = (m.reading_form() or surface).translate(HIRAGANA_TO_KATAKANA).rstrip("ー")
    name = NAME_KINDS.get(pos[2], "name") if sub == "固有名詞" else ""
    if kind == "名詞" and not name and not english and katakana_given_name(surface):
        name = "person"  # a katakana word with no meaning in the glossary, listed as a name
    return Word(
        key=key,
        surface=surface,
        pos=wordnet_pos,
        name=name,
        senses=frozenset(f"ja{group}" for group in m.synonym_group_ids()),
        reading=reading_of_prefix(prefix) + reading,
        english=english,
        opposites=opposites(english, wordnet_pos) | negated_stem(key),
        converses=converses_of(english) if wordnet_pos == "v" else frozenset(),
    )


# A godan verb's last kana (u row) and the e row of its potential form (泳ぐ: 泳げる).
U_TO_E = str.maketrans("うくぐすつぬぶむる", "えけげせてねべめれ")


def potential(m: Morpheme) -> bool:
    """Whether the verb is a godan verb's potential form (泳げる, 話せる: can swim, can
    speak), which the analyser gives that verb as its normal form."""
    written, base = m.dictionary_form(), m.normalized_form()
    return (
        m.part_of_speech()[0] == "動詞"
        and written != base
        and len(base) >= 2
        and written == base[:-1] + base[-1].translate(U_TO_E) + "る"
        and base[-1] != base[-1].translate(U_TO_E)
    )


def focus_of(kana: str) -> str:
    """What a focus particle adds to the fact, by the first gloss of its sense as a
    particle in JMdict: one of the adverbs that change a fact (だけ, しか, のみ, ばかり:
    "only"), or another adverb WordNet has, named by the first word of its first sense
    (くらい "approximately", ほど "about": both "approximately"), which an English reader
    would keep as a word; "" for emphasis (さえ "even") and for what is no adverb (とか
    "such as")."""
    reader, net = glosses(), wordnet()
    first = reader.of_particle(kana)[:1] if reader is not None else ()
    if not first or first[0] in EMPHASIS:
        return ""
    if first[0] in QUALIFYING_ADVERBS:
        return first[0]
    senses = net.offsets(first[0], "r") if net is not None else ()
    if not senses or net is None:
        return ""
    return (net.synset(senses[0], "r").words or first)[0]


def english_of(*forms: str, reading: str = "") -> tuple[str, ...]:
    """The word's English glosses (JMdict's first senses), by any of its forms, of the
    entries read ``reading`` where it is given and some are."""
    reader = glosses()
    if reader is None:
        return ()
    found: dict[str, None] = {}
    for form in dict.fromkeys(forms):
        found.update(dict.fromkeys(reader.of(form, reading)))
    return tuple(found)


def opposites(english: tuple[str, ...], pos: str) -> frozenset[str]:
    """WordNet's antonyms of the word's glosses (覚える "remember" / 忘れる "forget")."""
    net = wordnet()
    if net is None:
        return frozenset()
    # A gloss may be another part of speech than the word (出席: "attendance").
    return frozenset(
        a for gloss in english for part in dict.fromkeys((pos, "n", "v", "a"))
        for a in net.related(gloss, part, ANTONYM, whole_synsets=part == "v")
    )  # fmt: skip


def negated_stem(key: str) -> frozenset[str]:
    """What a word with a negating prefix denies (不合格 / 合格, 未完成 / 完成, 非公開 /
    公開): the prefix is grammar's, its stem the opposite (two kanji at least,
    so 不安 is not read as "not 安")."""
    if len(key) >= 3 and key[0] in NEGATING_PREFIXES:
        return frozenset({key[1:]})
    return frozenset()


@lru_cache(maxsize=16384)
def converses_of(english: tuple[str, ...]) -> frozenset[str]:
    """The converse verbs of the word's glosses (教える "teach" / 習う "learn")."""
    net = wordnet()
    if net is None:
        return frozenset()
    return frozenset(c for gloss in english for c in converses(net, gloss))


def reading_of_prefix(prefix: str) -> str:
    if not prefix:
        return ""
    return "".join((m.reading_form() or m.surface()) for m in morphemes(prefix)).translate(
        HIRAGANA_TO_KATAKANA
    )


def _first_gloss(word: Word) -> list[str]:
    """The words of ``word``'s first English gloss (younger_sister: younger, sister)."""
    return re.split(r"[ _]", word.english[0]) if word.english else []


def someone(word: Word) -> bool:
    """A person or an animal: a name but a place's, or a noun whose first English gloss
    (its last word) is one in WordNet (友達: friend, 妹: younger sister, 犬: dog)."""
    if word.name:
        return word.name != "place"  # a place's name is no one (エミと横浜の水族館)
    glossed = _first_gloss(word)
    return word.animate or (bool(glossed) and is_animate(glossed[-1]))


# English's universal quantifiers, by which a Japanese word's first gloss says it is one
# (全部: all, 毎日: every day, いつも: always, 両方: both).
UNIVERSAL = frozenset({"all", "every", "always", "both", "everyone", "everybody", "everything"})


# English's adverbs of frequency (Quirk et al.), and "every", by which a Japanese word's
# first gloss says it tells a habit (毎朝: every morning, いつも: always, 時々: sometimes).
FREQUENCY = frozenset(
    {"always", "usually", "often", "frequently", "sometimes", "occasionally", "rarely",
     "seldom", "never", "every", "daily", "weekly", "monthly", "yearly"}
)  # fmt: skip


def habitual(word: Word) -> bool:
    """A qualifying word whose first gloss opens with an adverb of frequency."""
    glossed = _first_gloss(word)
    return word.qualifier and bool(glossed) and glossed[0] in FREQUENCY


def universal(word: Word) -> bool:
    """A qualifying word whose first gloss opens with a universal quantifier."""
    glossed = _first_gloss(word)
    return word.qualifier and bool(glossed) and glossed[0] in UNIVERSAL


def with_heads(words: list[Word], describing: set[int]) -> tuple[Word, ...]:
    """Each word with the predicate after it (Japanese is head-final); an adjective that
    only describes a noun (ケンに古いカメラを売った) is no predicate of the words before it."""
    found: list[Word] = []
    for index, word in enumerate(words):
        if word.head:  # a cleft's focus, whose predicate comes before it
            found.append(word)
            continue
        head = next(
            (
                w
                for at, w in enumerate(words[index + 1 :], index + 1)
                if w.pos in ("v", "a") and w.key != word.key and at not in describing
            ),
            None,
        )
        # 赤いかばん: an adjective that describes a noun describes the one after it.
        noun = (
            next((w for w in words[index + 1 :] if w.pos == "n"), None)
            if index in describing
            else None
        )
        told = replace(word, modifies=noun.key) if noun else word
        found.append(replace(told, head=head.key, head_senses=head.senses) if head else told)
    return tuple(found)
