"""Giving freed heap back: a process that freed a large read shrinks again."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ego_mcp import heap
from ego_mcp.heap import _malloc_trim, releasing_heap

PROBE = """
import os
from ego_mcp.heap import release_free_heap

def resident_mib():
    with open(f"/proc/{os.getpid()}/status") as status:
        line = next(line for line in status if line.startswith("VmRSS"))
    return int(line.split()[1]) // 1024

records = [os.urandom(2_000) for _ in range(100_000)]  # ~200 MiB from malloc, not pymalloc
kept = records[-1]  # pins the top of the heap, so free() alone cannot shrink it
del records
before = resident_mib()
release_free_heap()
print(before, resident_mib())
"""


@pytest.mark.skipif(_malloc_trim() is None, reason="the C library has no malloc_trim")
def test_freed_heap_goes_back_to_the_system() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    before, after = (int(value) for value in result.stdout.split())
    assert before - after > 100, (before, after)


def test_releasing_heap_trims_after_the_work_whether_it_returns_or_raises(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trims: list[str] = []
    monkeypatch.setattr(heap, "release_free_heap", lambda: trims.append("trim"))

    def fails() -> None:
        raise ValueError("the work failed")

    assert releasing_heap(lambda a, b: a + b)(2, b=3) == 5
    with pytest.raises(ValueError, match="the work failed"):
        releasing_heap(fails)()
    assert trims == ["trim", "trim"]
