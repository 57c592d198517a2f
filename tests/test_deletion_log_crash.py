"""A process killed inside a forget, at the two points that matter to the deletion log
(a SQLite file in the embedded store): right after the memory left Chroma, its entry is
there and the memory comes back whole; right after the entry was written and before any
other write, the memory is still stored and a second forget completes. Real processes,
real Chroma, real SQLite; the child kills itself with SIGKILL from outside the product's
code."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from tests.conftest import model_env
from tests.helpers import all_memories, assert_links_bidirectional, save

CHILD = """
import os, signal, sys
from pathlib import Path
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings

settings = load_settings(data_dir=Path(sys.argv[1]))
memory = Runtime.open(settings).memory(settings.agent)
step, memory_id = sys.argv[2:]
store, log = memory.store, memory.deletion_log
if step == "after the delete":
    deleted = store.delete
    def delete_then_die(memory_id):
        deleted(memory_id)
        os.kill(os.getpid(), signal.SIGKILL)
    store.delete = delete_then_die
else:  # after the entry, before the reverse links and the delete
    logged = log.put
    def put_then_die(entry):
        logged(entry)
        os.kill(os.getpid(), signal.SIGKILL)
    log.put = put_then_die
memory.forget(memory_id)
"""

TEXTS = (
    "Master repaired the wobbly kitchen chair with wood glue.",
    "Master repaired the kitchen table's wobbly leg with wood glue too.",
    "Master's kitchen chairs all wobble a little in winter.",
)


def run_killed(tmp_path: Path, child: str, *args: str) -> None:
    """Run ``child`` with ``args`` in a process of its own; it must die by SIGKILL."""
    script = tmp_path / "child.py"
    script.write_text(child)
    env = {**model_env(), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, str(script), *args],
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()[-2000:]


def killed_in_forget(tmp_path: Path, data: Path, step: str, memory_id: str) -> None:
    run_killed(tmp_path, CHILD, str(data), step, memory_id)


def test_a_forget_killed_after_the_delete_can_be_undone_whole(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings = load_settings(data_dir=data)
    runtime = Runtime.open(settings)
    memory = runtime.memory(settings.agent)
    ids = [save(memory, text, force=False) for text in TEXTS]
    gone = ids[0]
    linked = {link.target_id for link in memory.get(gone).linked_ids}
    assert linked  # the fault must cut links, or it tests nothing of them
    runtime.close()

    killed_in_forget(tmp_path, data, "after the delete", gone)

    runtime = Runtime.open(settings)
    try:
        memory = runtime.memory(settings.agent)
        assert gone not in all_memories(memory.store)
        assert memory.deletion_log is not None and memory.deletion_log.get(gone) is not None
        assert_links_bidirectional(memory.store)
        memory.restore(gone)
        back = memory.get(gone)
        assert back.content == TEXTS[0]
        assert {link.target_id for link in back.linked_ids} == linked
        assert_links_bidirectional(memory.store)
        assert memory.lexical is not None and memory.lexical.unsettled() == {}
    finally:
        runtime.close()


def test_a_forget_killed_after_its_entry_leaves_the_memory_and_forgets_it_again(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    settings = load_settings(data_dir=data)
    runtime = Runtime.open(settings)
    memory = runtime.memory(settings.agent)
    ids = [save(memory, text, force=False) for text in TEXTS]
    gone = ids[0]
    runtime.close()

    killed_in_forget(tmp_path, data, "after the entry", gone)

    runtime = Runtime.open(settings)
    try:
        memory = runtime.memory(settings.agent)
        assert memory.get(gone).content == TEXTS[0]  # nothing else was written
        assert memory.deletion_log is not None and memory.deletion_log.get(gone) is not None
        memory.forget(gone)
        assert gone not in all_memories(memory.store)
        assert_links_bidirectional(memory.store)
        memory.restore(gone)
        assert memory.get(gone).content == TEXTS[0]
        assert_links_bidirectional(memory.store)
    finally:
        runtime.close()


PURGE_CHILD = """
import os, signal, sys
from datetime import UTC, datetime
from pathlib import Path
from ego_mcp.memory.model import DeletedMemory, Memory
from ego_mcp.store.deletion_log_sqlite import SqliteDeletionLog

log = SqliteDeletionLog(Path(sys.argv[1]))
memory = Memory(id="mem_0123456789ab", content=sys.argv[2], timestamp=datetime.now(UTC))
log.put(DeletedMemory(memory=memory, deleted_at=datetime.now(UTC), deleted_by="forget"))
log._db.execute("DELETE FROM entries")  # the purge's commit, and no checkpoint after it
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_purge_stopped_before_its_checkpoint_leaves_no_text_once_the_log_opens(
    tmp_path: Path,
) -> None:
    from ego_mcp.store.deletion_log_sqlite import SqliteDeletionLog

    marker = "zq-unpurged-wal-marker-93fd"
    path = tmp_path / "forgotten" / "default.sqlite3"
    run_killed(tmp_path, PURGE_CHILD, str(path), f"A secret about the attic; {marker}.")

    def holding() -> list[str]:
        return [p.name for p in path.parent.iterdir() if marker.encode() in p.read_bytes()]

    assert holding()  # the fault happened: the text is still in the write-ahead log
    log = SqliteDeletionLog(path)  # a server running on (closing would checkpoint anyway)
    try:
        assert holding() == []
    finally:
        log.close()
