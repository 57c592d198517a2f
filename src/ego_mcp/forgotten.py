"""What ``ego-mcp forgotten`` shows: the deletion log, never the text of a private memory."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ego_mcp.memory.model import DeletedMemory
from ego_mcp.server.format import snippet

PRIVATE_SNIPPET = "(private)"
SNIPPET_CHARS = 80


def log_rows(entries: list[DeletedMemory], window: timedelta) -> list[dict[str, Any]]:
    """One JSON-ready row per entry; a private memory's snippet is withheld."""
    return [
        {
            "id": entry.memory.id,
            "deleted_at": entry.deleted_at.isoformat(),
            "deleted_by": entry.deleted_by,
            "merged_into": entry.merged_into,
            "restorable_until": (entry.deleted_at + window).isoformat(),
            "private": entry.memory.is_private,
            "snippet": None
            if entry.memory.is_private
            else snippet(entry.memory.content, SNIPPET_CHARS),
        }
        for entry in entries
    ]


def render_log(agent: str, rows: list[dict[str, Any]]) -> str:
    if not rows:
        return f"agent {agent}: the deletion log is empty"
    lines = [f"agent {agent}: {len(rows)} forgotten memories (restore_memory brings one back)"]
    for row in rows:
        by = row["deleted_by"] + (f" into {row['merged_into']}" if row["merged_into"] else "")
        lines.append(
            f"  {row['id']}  {row['deleted_at'][:16]}  {by:<34} {row['snippet'] or PRIVATE_SNIPPET}"
        )
    return "\n".join(lines)
