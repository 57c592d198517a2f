"""A process killed between the lexical index write and the vector write: at the next
open the two agree again. Real processes, real Chroma, real SQLite; the child kills
itself with SIGKILL at the exact point, from outside the product's code."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from ego_mcp.store.lexical_sqlite import SqliteLexicalIndex, lexical_path
from tests.conftest import model_env
from tests.helpers import save

CHILD = """
import os, signal, sys
from pathlib import Path
from ego_mcp.memory.service import Draft
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings

settings = load_settings(data_dir=Path(sys.argv[1]))
memory = Runtime.open(settings).memory(settings.agent)
index = memory.lexical
if sys.argv[2] == "remember":  # the index has the memory, Chroma never gets it
    written = index.put
    def put_then_die(documents):
        written(documents)
        os.kill(os.getpid(), signal.SIGKILL)
    index.put = put_then_die
    memory.remember(Draft("The ferry to Miyajima left without us."), force=True)
else:  # Chroma has deleted the memory, the index still holds it
    index.remove = lambda ids: os.kill(os.getpid(), signal.SIGKILL)
    memory.forget(sys.argv[3])
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


def stored_and_indexed(data: Path) -> tuple[set[str], set[str]]:
    """After a restart: what the store and the lexical index hold."""
    settings = load_settings(data_dir=data)
    runtime = Runtime.open(settings)
    try:
        memory = runtime.memory(settings.agent)
        assert memory.lexical is not None
        stored = {memory_id for page in memory.store.ids() for memory_id in page}
        return stored, memory.lexical.ids()
    finally:
        runtime.close()


def indexed_before_restart(data: Path) -> set[str]:
    index = SqliteLexicalIndex(lexical_path(data, "default"))
    try:
        return index.ids()
    finally:
        index.close()


def test_a_crash_between_the_two_writes_is_mended_at_the_next_open(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings = load_settings(data_dir=data)
    runtime = Runtime.open(settings)
    kept = {save(runtime.memory(settings.agent), text) for text in KEPT}
    runtime.close()

    run_child(tmp_path, data, "remember")
    orphan = indexed_before_restart(data) - kept
    assert len(orphan) == 1  # the fault happened: the index holds a memory Chroma lacks
    stored, indexed = stored_and_indexed(data)
    assert stored == indexed == kept

    gone = sorted(kept)[0]
    run_child(tmp_path, data, "forget", gone)
    assert gone in indexed_before_restart(data)
    stored, indexed = stored_and_indexed(data)
    assert stored == indexed == kept - {gone}
