"""What the store's SQLite files (the lexical index, the deletion log) share: id lists cut
to what one ``IN (...)`` takes, and a write transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

SQL_VARIABLES = 500  # ids per IN (...) list
_T = TypeVar("_T")


def chunks(values: Sequence[_T]) -> Iterator[list[_T]]:
    """``values`` ``SQL_VARIABLES`` at a time."""
    for start in range(0, len(values), SQL_VARIABLES):
        yield list(values[start : start + SQL_VARIABLES])


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """A write transaction on ``db`` (opened with ``isolation_level=None``): committed when
    the block ends, rolled back if it raises or the commit fails."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
