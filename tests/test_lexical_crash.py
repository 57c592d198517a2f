"""A process killed between the lexical index write and the vector write: at the next
open the two agree again, row for row and word for word. Real processes, real Chroma,
real SQLite; the child kills itself with SIGKILL at the exact point, from outside the
product's code: after a save's index write, before a forget's index removal, and after
the index write of the kept memory's rewrite inside a merge and inside a restore (which
leave the counts equal: only the rows' hashes tell)."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

from ego_mcp.memory.recall.terms import terms
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from ego_mcp.store.lexical_sqlite import SqliteLexicalIndex, lexical_path
from tests.conftest import model_env
from tests.helpers import all_memories, save

CHILD = """
import os, signal, sys
from pathlib import Path
from ego_mcp.memory.service import Draft
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings

settings = load_settings(data_dir=Path(sys.argv[1]))
memory = Runtime.open(settings).memory(settings.agent)
index = memory.lexical
step, *ids = sys.argv[2:]
written = index.put
def put_then_die(documents, new=False):
    written(documents, new)
    if step == "remember" or ids[0] in documents:
        os.kill(os.getpid(), signal.SIGKILL)
index.put = put_then_die
if step == "remember":  # the index has the memory, Chroma never gets it
    memory.remember(Draft("The ferry to Miyajima left without us."), force=True)
elif step == "forget":  # Chroma has deleted the memory, the index still holds it
    index.remove = lambda ids: os.kill(os.getpid(), signal.SIGKILL)
    memory.forget(ids[0])
elif step == "merge":  # the index has the merged words, Chroma the kept memory's own
    memory.merge(ids[0], ids[1], "LOG-131 broke the nightly job; the ferry left late too.")
else:  # the index has the kept memory's words from before the merge, Chroma the merged
    memory.restore(ids[1])
"""

KEPT = ("LOG-131 broke the nightly job.", "東京の記憶について話した。")


def run_child(tmp_path: Path, data: Path, *args: str) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {**model_env(), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, str(script), str(data), *args],
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()[-2000:]


def stored_and_indexed(data: Path) -> tuple[dict[str, Counter[str]], dict[str, Counter[str]]]:
    """After a restart: each memory's terms as a rebuild would index them, and as the
    lexical index holds them."""
    settings = load_settings(data_dir=data)
    runtime = Runtime.open(settings)
    try:
        memory = runtime.memory(settings.agent)
        assert memory.lexical is not None
        stored = all_memories(memory.store)
        indexed = memory.lexical.documents(sorted(memory.lexical.ids()))
        assert memory.lexical.unsettled() == {}
        return (
            {i: Counter(terms(m.content)) for i, m in stored.items()},
            {i: Counter(document) for i, document in indexed.items()},
        )
    finally:
        runtime.close()


def indexed_before_restart(data: Path) -> dict[str, tuple[str, ...]]:
    index = SqliteLexicalIndex(lexical_path(data, "default"))
    try:
        return index.documents(sorted(index.ids()))
    finally:
        index.close()


def test_a_crash_between_the_two_writes_is_mended_at_the_next_open(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings = load_settings(data_dir=data)
    runtime = Runtime.open(settings)
    kept = {save(runtime.memory(settings.agent), text) for text in KEPT}
    runtime.close()

    run_child(tmp_path, data, "remember")
    orphan = set(indexed_before_restart(data)) - kept
    assert len(orphan) == 1  # the fault happened: the index holds a memory Chroma lacks
    stored, indexed = stored_and_indexed(data)
    assert set(stored) == kept and indexed == stored

    gone = sorted(kept)[0]
    run_child(tmp_path, data, "forget", gone)
    assert gone in indexed_before_restart(data)
    stored, indexed = stored_and_indexed(data)
    assert set(stored) == kept - {gone} and indexed == stored


def test_a_crash_inside_a_merge_or_a_restore_is_mended_at_the_next_open(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings = load_settings(data_dir=data)
    runtime = Runtime.open(settings)
    keep, other = (save(runtime.memory(settings.agent), text) for text in KEPT)
    runtime.close()

    run_child(tmp_path, data, "merge", keep, other)
    assert "ferry" in indexed_before_restart(data)[keep]  # the merged words, not stored
    stored, indexed = stored_and_indexed(data)
    assert "ferry" not in stored[keep] and indexed == stored

    runtime = Runtime.open(settings)  # this time the merge completes
    runtime.memory(settings.agent).merge(keep, other, "LOG-131 broke it; the ferry left late.")
    runtime.close()
    run_child(tmp_path, data, "restore", keep, other)
    assert "ferry" not in indexed_before_restart(data)[keep]  # the old words, not stored
    stored, indexed = stored_and_indexed(data)
    assert "ferry" in stored[keep] and indexed == stored
