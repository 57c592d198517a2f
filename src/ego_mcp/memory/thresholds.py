"""Thresholds per embedding model, as cosine distances (what the settings take).

Similarity scales differ from model to model, so each local model has its own values,
calibrated on ../shared/eval by ``bench/calibrate.py`` (re-run it for a new model).
Models not listed (the remote ones) keep the seeds' values, chosen for Gemini.
"""

from __future__ import annotations

from ego_mcp.errors import ConfigError
from ego_mcp.memory.parts import Thresholds

MODEL_THRESHOLDS = {
    # bench/calibrate.py: guard similarity 0.78 (F1 0.90 in the weaker language). The
    # nearest memory alone from 0.65: the judgement decides, and a restatement with an
    # acronym or a kana spelling embeds lower (ENT / ear, nose and throat: 0.68); on the
    # dedup sets no pair the judgement calls a duplicate lies below 0.65. Judging every
    # candidate from 0.65 doubled remember's p50 at N = 1,000 (36 -> 65 ms). Links by
    # the languages of the pair, on links_dev.jsonl (related = same activity, person,
    # thread, place or cause): similarity 0.33 for two English texts, 0.45 for two
    # Japanese ones (the model places unrelated Japanese pairs closer), 0.32 across;
    # 0.45 where the texts are not known (consolidation's ids and distances).
    "use-multilingual-v3": Thresholds(
        dedup=0.22, merge=0.22, link=0.55, link_by_script=(0.67, 0.55, 0.68), nearest=0.35
    ),
    # guard similarity 0.70 (F1 0.86); link similarity 0.835.
    "all-MiniLM-L6-v2": Thresholds(dedup=0.30, merge=0.30, link=0.165),
    # bench/calibrate.py: guard similarity 0.81 (passages, centred: embedding/e5.py). Links
    # by the languages of the pair as for USE (at the unrelated pairs' 90th percentile of
    # links_dev.jsonl): similarity 0.50 for two English texts, 0.59 for two Japanese ones,
    # 0.25 across; 0.59 where the texts are not known.
    "multilingual-e5-small": Thresholds(
        dedup=0.19, merge=0.19, link=0.41, link_by_script=(0.50, 0.41, 0.75)
    ),
}
SEED_THRESHOLDS = Thresholds(dedup=0.05, merge=0.10, link=0.3)


def thresholds_for(
    model: str, dedup: float | None, merge: float | None, link: float | None
) -> Thresholds:
    """The model's calibrated thresholds, each overridden by its setting when set."""
    base = MODEL_THRESHOLDS.get(model, SEED_THRESHOLDS)
    chosen = Thresholds(
        dedup=base.dedup if dedup is None else dedup,
        merge=base.merge if merge is None else merge,
        link=base.link if link is None else link,
        link_by_script=base.link_by_script if link is None else None,  # the setting rules
        nearest=base.nearest if dedup is None else None,
    )
    if chosen.dedup > chosen.merge:
        raise ConfigError(
            f"EGO_MCP_DEDUP_THRESHOLD ({chosen.dedup}) must not exceed EGO_MCP_MERGE_THRESHOLD "
            f"({chosen.merge}, for {model} unless set)"
        )
    return chosen
