"""English-Japanese translations of terms from JMdict and JMnedict, read-only.

The Electronic Dictionary Research and Development Group's JMdict (words) and JMnedict
(names), as the ``jamdict-data`` package ships them in one SQLite file, used under the
group's licence (CC BY-SA 4.0). We only read it.

A Japanese term translates to the words of the English glosses of the entries written
or read that way, and of the name entries (a katakana name is also looked up by its
hiragana reading, as JMnedict records readings); a gloss counts if it is a translation
of one or two words, not an explanation (``_translation``). An English term translates to the
headwords of the entries that have it, or "to" it, as a whole gloss, written in kanji
where the entry has kanji, and to the spellings of the names it romanises. A headword
counts only if it reads as one word, a compound included (``terms.single_term``):
phrases would bring in their particles' neighbours. Terms are normalised as the index
normalises them, so ``terms`` decides what matches; a trailing long vowel our terms drop
(マスター is マスタ) is restored for the lookup.
"""

from __future__ import annotations

import sqlite3
import threading
from functools import lru_cache
from pathlib import Path

from ego_mcp.memory.guard.glosses import translation_words
from ego_mcp.memory.japanese import KATAKANA_TO_HIRAGANA
from ego_mcp.memory.recall.terms import is_japanese_term, single_term, terms

CACHED_TERMS = 65_536

JAPANESE_TO_ENGLISH = """
    SELECT g.text FROM Sense s JOIN SenseGloss g ON g.sid = s.ID
    WHERE s.idseq IN (SELECT idseq FROM Kanji WHERE text IN (?1, ?2)
                      UNION SELECT idseq FROM Kana WHERE text IN (?1, ?2))
    UNION
    SELECT g.text FROM NETranslation t JOIN NETransGloss g ON g.tid = t.ID
    WHERE t.idseq IN (SELECT idseq FROM NEKanji WHERE text IN (?1, ?2)
                      UNION SELECT idseq FROM NEKana WHERE text IN (?1, ?2, ?3))
"""
# An entry's kanji headwords where it has any, else its kana ones: Japanese text writes
# 結婚式, not けっこんしき.
ENGLISH_TO_JAPANESE = """
    WITH entries AS (
        SELECT DISTINCT s.idseq FROM SenseGloss g JOIN Sense s ON s.ID = g.sid
        WHERE g.text IN (?1, 'to ' || ?1)
    )
    SELECT k.text FROM Kanji k JOIN entries e ON k.idseq = e.idseq
    UNION
    SELECT n.text FROM Kana n JOIN entries e ON n.idseq = e.idseq
    WHERE NOT EXISTS (SELECT 1 FROM Kanji k WHERE k.idseq = e.idseq)
    UNION
    SELECT k.text FROM NETransGloss g JOIN NETranslation t ON t.ID = g.tid
    JOIN NEKanji k ON k.idseq = t.idseq WHERE g.text = ?2
    UNION
    SELECT n.text FROM NETransGloss g JOIN NETranslation t ON t.ID = g.tid
    JOIN NEKana n ON n.idseq = t.idseq WHERE g.text = ?2
"""


class JMdict:
    """``memory.crosslingual.Dictionary`` over jamdict-data's SQLite file, shared by every
    agent of the process; answers are cached per term."""

    def __init__(self, path: Path) -> None:
        uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
        self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        self._cached = lru_cache(maxsize=CACHED_TERMS)(self._look_up)

    def translations(self, term: str) -> frozenset[str]:
        return self._cached(term)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _look_up(self, term: str) -> frozenset[str]:
        if is_japanese_term(term):
            glosses = self._rows(JAPANESE_TO_ENGLISH, (term, term + "ー", _hiragana(term)))
            return frozenset(
                t
                for gloss in map(_translation, glosses)
                if gloss is not None
                for t in terms(gloss)
                if not is_japanese_term(t)
            )
        headwords = self._rows(ENGLISH_TO_JAPANESE, (term, term.capitalize()))
        found: set[str] = set()
        for headword in headwords:
            word = single_term(headword)
            if word is not None and is_japanese_term(word):
                found.add(word)
        return frozenset(found)

    def _rows(self, query: str, parameters: tuple[str, ...]) -> list[str]:
        with self._lock:
            return [row[0] for row in self._db.execute(query, parameters)]


def open_jmdict() -> JMdict | None:
    """The dictionary jamdict-data installed, or None if it is missing (recall then
    scores words in the query's own language only)."""
    try:
        import jamdict_data
    except ImportError:
        return None
    path = Path(jamdict_data.JAMDICT_DB_PATH)
    return JMdict(path) if path.is_file() else None


def _translation(gloss: str) -> str | None:
    """A gloss as a translation (``translation_words``), or None for an explanation."""
    words = translation_words(gloss)
    return " ".join(words) if words else None


def _hiragana(text: str) -> str:
    """Katakana letters as hiragana (JMnedict records names' readings in hiragana)."""
    return text.translate(KATAKANA_TO_HIRAGANA)
