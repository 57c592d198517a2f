"""Thresholds per embedding model, as cosine distances (what the settings take).

Similarity scales differ from model to model, so each local model has its own values,
calibrated on ../shared/eval by ``bench/calibrate.py`` (re-run it for a new model).
Models not listed (the remote ones) keep the seeds' values, chosen for Gemini.
"""

from __future__ import annotations

from ego_mcp.errors import ConfigError
from ego_mcp.memory.service import Thresholds

MODEL_THRESHOLDS = {
    # bench/calibrate.py: guard similarity 0.78 (F1 0.90 in the weaker language); link
    # similarity 0.778 (the lower quartile of the labelled near-misses).
    "use-multilingual-v3": Thresholds(dedup=0.22, merge=0.22, link=0.222),
    # guard similarity 0.70 (F1 0.86); link similarity 0.835.
    "all-MiniLM-L6-v2": Thresholds(dedup=0.30, merge=0.30, link=0.165),
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
    )
    if chosen.dedup > chosen.merge:
        raise ConfigError(
            f"EGO_MCP_DEDUP_THRESHOLD ({chosen.dedup}) must not exceed EGO_MCP_MERGE_THRESHOLD "
            f"({chosen.merge}, for {model} unless set)"
        )
    return chosen
