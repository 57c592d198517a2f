"""The duplicate guard: is a new text the same memory as one it embeds close to?

The nearest memory within the dedup threshold is only a candidate. Both texts are read
(``analysis``: numbers and dates as values, words with the role they play, qualifiers,
negations) and the new text is refused only when the two are equivalent: each one's
content is found in the other, with the same structure. Three answers, one judgement:

- ``DUPLICATE``: a restatement (synonyms, a misspelling, another order, the other voice,
  a converse verb, a negated antonym, the diarist's "I" left implicit): refused, naming
  the memory;
- ``POSSIBLE``: the new text only leaves out detail the other has ("adds nothing"):
  saved, since a missing word can change the fact, and proposed for a merge;
- ``DISTINCT``: a fact differs (roles, order, a qualifier, a number, a date, a person,
  a place, a negation, or words one text has and the other lacks): saved as "similar to",
  never proposed for a merge.

The same judgement decides what consolidation proposes to merge (``mergeable``) and
what a new memory corrects (``corrects``). ``judgement`` holds the judgement,
``superseding`` the reading of a correction.
"""

from __future__ import annotations

from ego_mcp.memory.guard.corrections import marked_as_correction
from ego_mcp.memory.guard.judgement import (
    LONGEST_COMPARED,
    TOO_LONG,
    Comparison,
    Verdict,
    compare,
    differences,
    judge,
    mergeable,
    read_ahead,
)
from ego_mcp.memory.guard.superseding import CORRECTION_KINDS, corrects

__all__ = [
    "CORRECTION_KINDS",
    "LONGEST_COMPARED",
    "TOO_LONG",
    "Comparison",
    "Verdict",
    "compare",
    "corrects",
    "differences",
    "judge",
    "marked_as_correction",
    "mergeable",
    "read_ahead",
]
