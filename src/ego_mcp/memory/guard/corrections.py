"""The words that mark a sentence as a correction, which say nothing of the fact itself.

A correction is often marked: a discourse marker before it ("actually", "it turns out",
"after all", 実は, やっぱり) or the old value denied beside the new one ("at the café,
not the library", "新宿ではなく池袋で"). Both belong to grammar's closed classes; the
guard's reading of what a correction replaces (``guard.corrects``) reads the new text
without them, so that the marker is not taken for a fact of its own.
"""

from __future__ import annotations

import re

# Discourse markers of a correction, at the start of the sentence or of a clause.
MARKERS = re.compile(
    r"(?i)(?:^|(?<=[.;!?]\s))(?:actually|in fact|(?:as )?it turns out(?: that)?|"
    r"turns out(?: that)?|after all|as it happens)[,\s]+"
    r"|,?\s+after all(?=[.;!?]|$)"
    r"|実は|実際は|本当は|やっぱり|やはり|結局"
)
# The old value denied beside the new one: ", not the library." / "、新宿ではなく".
DENIED = re.compile(r",\s*not\s+[^,.;!?]+(?:,(?=\s)|(?=[.;!?]|$))|[一-龥々ァ-ヶー]+ではなく、?")


def without_correction_marks(text: str) -> str:
    """``text`` without the marks of a correction."""
    return DENIED.sub("", MARKERS.sub("", text)).strip()
