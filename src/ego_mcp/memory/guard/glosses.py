"""English glosses of Japanese words, from JMdict (EDRDG, CC BY-SA 4.0, as the
``jamdict-data`` package ships it): the guard's bridge from Japanese to WordNet.

Two Japanese words that share a gloss of their entries' first senses mean the same
(近く and そば are both "near"); a gloss WordNet calls the antonym of another's makes two
opposites (覚える "remember", 忘れる "forget"). Only the first sense of each entry counts
there, and only glosses of one or two words: the rarer senses and the explanations
would join words that differ. Every sense (``of_every_sense``) serves only to call a
word for another a rewording the guard cannot vouch for (修理 "repair" / 直し
"correction", then "repair"). A particle's first sense as a particle (``of_particle``:
だけ "only", くらい "approximately") tells what a focus particle adds to a fact.
Read-only, cached per word.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from functools import cache, lru_cache
from pathlib import Path

from ego_mcp.memory.japanese import KATAKANA_TO_HIRAGANA

FIRST_SENSE_GLOSSES = """
    SELECT g.text FROM Sense s JOIN SenseGloss g ON g.sid = s.ID
    WHERE s.ID IN (
        SELECT MIN(s2.ID) FROM Sense s2
        WHERE s2.idseq IN (SELECT idseq FROM Kanji WHERE text = ?1
                           UNION SELECT idseq FROM Kana WHERE text = ?1)
        GROUP BY s2.idseq)
"""
# Every sense's glosses: what a word may also mean (直し: "correction", then "repair"),
# of the entries read as the analyser read it where some are (大家 read おおや is a
# landlord, read たいか an expert).
EVERY_SENSE_GLOSSES = """
    SELECT g.text FROM Sense s JOIN SenseGloss g ON g.sid = s.ID
    WHERE s.idseq IN (SELECT idseq FROM Kanji WHERE text = ?1
                      UNION SELECT idseq FROM Kana WHERE text = ?1)
"""
EVERY_SENSE_GLOSSES_READ_AS = EVERY_SENSE_GLOSSES.replace(
    "SELECT idseq FROM Kanji WHERE text = ?1",
    "SELECT k.idseq FROM Kanji k JOIN Kana r ON r.idseq = k.idseq "
    "WHERE k.text = ?1 AND r.text = ?2",
)
# The glosses of the first sense JMdict files as a particle, of the kana's entries
# (だけ "only", くらい "approximately"): a particle's kana also spell other words (くらい
# is 暗い "dark" too), whose first senses ``FIRST_SENSE_GLOSSES`` would give.
PARTICLE_GLOSSES = """
    SELECT g.text FROM SenseGloss g WHERE g.sid = (
        SELECT MIN(s.ID) FROM Sense s JOIN pos p ON p.sid = s.ID
        WHERE s.idseq IN (SELECT idseq FROM Kana WHERE text = ?1)
          AND p.text LIKE 'particle%')
"""
NOTE = re.compile(r"\([^)]*\)")
LEADS = frozenset({"to", "a", "an", "the"})
MOST_WORDS = 2
# The same, of the entries of a written form read as the analyser read it (?2, in
# hiragana): 夫 read おっと is "husband"; the entry read つま, which 夫 may also write, is
# "wife".
FIRST_SENSE_GLOSSES_READ_AS = FIRST_SENSE_GLOSSES.replace(
    "SELECT idseq FROM Kanji WHERE text = ?1",
    "SELECT k.idseq FROM Kanji k JOIN Kana r ON r.idseq = k.idseq "
    "WHERE k.text = ?1 AND r.text = ?2",
)


def translation_words(gloss: str) -> list[str]:
    """A JMdict gloss as a translation: its notes in parentheses and the grammar JMdict
    writes before it (the "to" of a verb, an article) left out; none if more than
    ``MOST_WORDS`` words remain, an explanation rather than a translation ("to get rid
    of", "shaped like an umbrella"), whose little words would match anything."""
    words = NOTE.sub(" ", gloss).split()
    if words and words[0].lower() in LEADS:
        words = words[1:]
    return words if len(words) <= MOST_WORDS else []


class Glosses:
    """First-sense glosses over one JMdict SQLite file, thread-safe."""

    def __init__(self, path: Path) -> None:
        uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
        self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        self._lock = threading.Lock()

    @lru_cache(maxsize=8192)  # noqa: B019 (one reader per process, kept for its life)
    def of(self, word: str, reading: str = "") -> tuple[str, ...]:
        """The one- or two-word English glosses of ``word``'s entries' first senses,
        lower case, without JMdict's notes and the "to" of a verb. With the ``reading``
        the analyser gave it (kana), only the entries read so, if any are."""
        return self._glosses(FIRST_SENSE_GLOSSES, FIRST_SENSE_GLOSSES_READ_AS, word, reading)

    @lru_cache(maxsize=8192)  # noqa: B019 (as above)
    def of_every_sense(self, word: str, reading: str = "") -> tuple[str, ...]:
        """The same, of every sense of ``word``'s entries."""
        return self._glosses(EVERY_SENSE_GLOSSES, EVERY_SENSE_GLOSSES_READ_AS, word, reading)

    @lru_cache(maxsize=256)  # noqa: B019 (as above; particles are a closed class)
    def of_particle(self, kana: str) -> tuple[str, ...]:
        """The one- or two-word glosses of the first sense JMdict gives ``kana`` as a
        particle."""
        with self._lock:
            rows = [row[0] for row in self._db.execute(PARTICLE_GLOSSES, (kana,))]
        return _translations(rows)

    def _glosses(self, query: str, read_as_query: str, word: str, reading: str) -> tuple[str, ...]:
        """``query``'s glosses of ``word``, or ``read_as_query``'s of the entries read
        ``reading`` where that is given and some are."""
        with self._lock:
            rows = []
            if reading:
                read_as = (word, reading.translate(KATAKANA_TO_HIRAGANA))
                rows = [row[0] for row in self._db.execute(read_as_query, read_as)]
            if not rows:
                rows = [row[0] for row in self._db.execute(query, (word,))]
        return _translations(rows)


def _translations(glosses: list[str]) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for gloss in glosses:
        words = translation_words(gloss)
        if words:
            found["_".join(words).lower()] = None
    return tuple(found)


@cache
def glosses() -> Glosses | None:
    """The process's reader, or None without jamdict-data (Japanese words then match
    by their form, reading and Sudachi's synonym groups only)."""
    try:
        import jamdict_data
    except ImportError:
        return None
    path = Path(jamdict_data.JAMDICT_DB_PATH)
    return Glosses(path) if path.is_file() else None
