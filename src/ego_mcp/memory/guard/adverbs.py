"""Closed classes of English function words the guard reads, as grammars list them
(Quirk et al.): the adverbs that change a fact (degree, frequency, focus, aspect: the
subjuncts), which the English reader takes as qualifiers and the Japanese reader finds
in a focus particle's gloss (だけ, しか, のみ: "only"); the emphasis words, which change
none; the focusing adverbs, weighed by what they stand at; and the prepositions opposed
where WordNet gives them no antonym."""

from __future__ import annotations

_WRITTEN = (
    "almost nearly barely hardly scarcely partly partially half fully completely entirely "
    "totally mostly always never sometimes often usually rarely seldom occasionally "
    "frequently once twice only merely solely still already yet anymore again soon "
    "recently longer"
)
QUALIFYING_ADVERBS = frozenset(_WRITTEN.split())
EMPHASIS = frozenset(
    [
        "very",
        "really",
        "quite",
        "rather",
        "just",
        "so",
        "too",
        "also",
        "even",
        "pretty",
        "much",
        "ever",
    ]
)
# The focusing adverbs (Quirk et al.'s focusing subjuncts): each says something of the
# one part of the sentence it stands at (only Ken came / Ken came only to the party).
FOCUS = frozenset({"only", "merely", "solely", "just", "even", "also"})
# Prepositions of position and direction opposed where WordNet gives them no antonym
# (it has up / down, inside / outside, above / below, on / off): a closed class, as
# grammars pair them (Quirk et al.: positive and negative position, direction).
OPPOSED_PREPOSITIONS = frozenset(
    {("on", "under"), ("over", "under"), ("into", "out"), ("for", "against")}
)  # fmt: skip
