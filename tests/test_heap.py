"""Giving freed heap back: a process that freed a large read shrinks again."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ego_mcp.heap import _malloc_trim

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
