"""The terms of a text for the lexical index: what BM25 counts, in English and Japanese.

English (and other Latin-script) words are lower-cased and lemmatised with simplemma's
tables ("researched" and "researching" are "research"); an identifier's or a name's parts
count apart and joined ("LOG-131": log, 131, log131; "O'Brien-Smith": o, brien, smith,
obriensmith), so the whole identifier is the rarest term; a decimal number is one term
("3.5"). Japanese has no spaces: Sudachi's dictionary splits it into middle-sized words
by normalised base form (行った is 行く, りんご is 林檎, 三つ is 3 and つ), less particles,
auxiliaries and symbols, so a two-character word (東京, 記憶) or a katakana term
(コンピューター, its final long vowel dropped) is one term, not a string of characters.
Pure, apart from loading the two dictionaries on first use.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ego_mcp.memory import japanese

JAPANESE_SPAN = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\u3005\u3006]+")
JAPANESE_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[0-9a-zß-öø-ÿ\u0100-\u024f]+(?:[-_.'’][0-9a-zß-öø-ÿ\u0100-\u024f]+)*")
JOINERS = re.compile(r"[-_.']")
DECIMAL = re.compile(r"\d+(?:\.\d+)+")
CLITICS = frozenset({"s", "t", "d", "ll", "m", "re", "ve"})  # Master's, didn't, we'll
# English function words (closed classes: articles, pronouns, prepositions,
# conjunctions, auxiliaries and modals): they name no topic, so a memory that shares only
# them with a query is no match by words ("cherry blossoms in Tokyo" shares "in" with
# anything). Beside a content word they still count, with the little weight BM25 gives.
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "some",
        "any",
        "each",
        "every",
        "no",
        "not",
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "we",
        "us",
        "our",
        "ours",
        "you",
        "your",
        "yours",
        "he",
        "him",
        "his",
        "she",
        "her",
        "hers",
        "it",
        "its",
        "they",
        "them",
        "their",
        "theirs",
        "who",
        "whom",
        "whose",
        "which",
        "what",
        "of",
        "in",
        "on",
        "at",
        "to",
        "from",
        "by",
        "with",
        "without",
        "for",
        "about",
        "into",
        "onto",
        "over",
        "under",
        "up",
        "down",
        "out",
        "off",
        "as",
        "than",
        "then",
        "so",
        "and",
        "or",
        "but",
        "nor",
        "if",
        "because",
        "while",
        "though",
        "although",
        "be",
        "am",
        "is",
        "are",
        "was",
        "were",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "done",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
    ]
)
QUESTION_MARKS = frozenset("?\uff1f")


def asks(text: str) -> bool:
    """Whether ``text`` ends by asking: a question mark is among the punctuation and
    symbols that close it (What?! / 本当？！ / How was it? 🙂 / 「行く？」), after its last
    word. Recall ranks such a memory lower for a question (``memory/recall/fusion.py``),
    and the lexical index keeps the answer beside the memory's terms."""
    end = len(text)
    while end and (text[end - 1].isspace() or unicodedata.category(text[end - 1])[0] in "PS"):
        end -= 1
    return not QUESTION_MARKS.isdisjoint(text[end:])


# What reads Japanese into terms: an index whose Japanese rows were read by another (Janome,
# before Sudachi) reads them again at the next open (``MemoryStore.mend_lexical``).
JAPANESE_READER = "sudachi-middle"
# Particles, auxiliaries and symbols, by the dictionary's parts of speech: they mark
# grammar, not a topic, and in a store with few Japanese memories they would look rare.
JA_SKIPPED_POS = frozenset({"助詞", "助動詞", "記号", "補助記号", "空白"})


def terms(text: str) -> list[str]:
    """The terms of ``text`` in order, repeats kept (BM25 counts them)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    found = _latin_terms(JAPANESE_SPAN.sub(" ", folded))
    for span in JAPANESE_SPAN.findall(folded):
        found.extend(_japanese_terms(span))
    return found


def content_terms(found: list[str]) -> set[str]:
    """The terms of ``found`` that can make a match on their own: all but function words
    (a query of only "in the" has none)."""
    return {term for term in found if term not in FUNCTION_WORDS}


def is_japanese_term(term: str) -> bool:
    """Whether ``term`` is Japanese (it can only occur in a text written in Japanese)."""
    return JAPANESE_CHAR.search(term) is not None


def _latin_terms(text: str) -> list[str]:
    found: list[str] = []
    for match in LATIN_WORD.finditer(text):
        word = match.group(0).replace("’", "'")
        if DECIMAL.fullmatch(word):
            found.append(word)  # 3.5, 1.2.3: one value, not 3, 5 and 35
            continue
        head, _, tail = word.rpartition("'")
        if head and tail in CLITICS:
            word = head  # Master's, didn't: the word without its clitic
        parts = [part for part in JOINERS.split(word) if part]
        found.extend(_lemma(part) for part in parts)
        if len(parts) > 1:
            found.append("".join(parts))  # LOG-131 is also log131, O'Brien-Smith obriensmith
    return found


@lru_cache(maxsize=65536)
def _lemma(word: str) -> str:
    if not word.isalpha():
        return word  # numbers and mixed identifiers are matched as written
    import simplemma

    # low_memory: the table is read in place, a block at a time (as the guard reads it,
    # english/lexicon.py), not unpacked into a dict: 4 MiB resident where the dict took
    # 21, and 14 us a word not yet cached here where it took 2
    return str(simplemma.lemmatize(word, lang="en", low_memory=True)).casefold()


@lru_cache(maxsize=4096)
def _japanese_terms(span: str) -> tuple[str, ...]:
    """Each word's term, followed by the terms of its parts when it is a compound: 研究会
    is 研究会, 研究 and 会, so that 研究 finds it too and 研究会 finds it first."""
    found = []
    for token in japanese.tokens(span):
        if token.pos[0] in JA_SKIPPED_POS:
            continue
        found.append(_japanese_term(token))
        found.extend(_japanese_term(part) for part in token.parts)
    return tuple(found)


def single_term(text: str) -> str | None:
    """The term ``text`` reads as if it is one word (a compound counts as one: 結婚式), else
    None (a phrase)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if not JAPANESE_SPAN.fullmatch(folded):
        found = terms(text)
        return found[0] if len(found) == 1 else None
    words = [t for t in japanese.tokens(folded) if t.pos[0] not in JA_SKIPPED_POS]
    return _japanese_term(words[0]) if len(words) == 1 else None


def _japanese_term(token: japanese.Token) -> str:
    base = token.base if token.base not in ("", "*") else token.surface
    return base.rstrip("ー") or base
