"""The queue status page: the facts of ``ego-mcp queue`` as one small HTML page that
refreshes itself, reads on a phone and needs no JavaScript. Pure: status in, HTML out."""

from __future__ import annotations

from datetime import datetime
from html import escape
from typing import Any

from ego_mcp.queue.status import worker_line

REFRESH_SECONDS = 5
STYLE = """
body{font-family:system-ui,sans-serif;margin:0;padding:12px;background:#fafafa;color:#222}
h1{font-size:1.2em;margin:0 0 4px} h2{font-size:1em;margin:18px 0 6px}
.facts{display:flex;gap:8px;flex-wrap:wrap}
.fact{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:90px}
.fact b{display:block;font-size:1.6em} .bad b{color:#b00020}
table{border-collapse:collapse;width:100%;background:#fff;font-size:.9em}
td,th{border:1px solid #ddd;padding:4px 6px;text-align:left;overflow-wrap:anywhere}
.muted{color:#777;font-size:.85em}
"""


def _age(moment: str, now: datetime) -> str:
    try:
        seconds = int((now - datetime.fromisoformat(moment)).total_seconds())
    except ValueError:
        return "?"
    for unit, size in (("d", 86_400), ("h", 3_600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return f"{max(seconds, 0)}s ago"


def _when(moment: str) -> str:
    """An ISO time as ``YYYY-MM-DD HH:MM:SS`` (UTC as stored)."""
    try:
        return datetime.fromisoformat(moment).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return moment


def _table(headers: list[str], rows: list[list[str]], empty: str) -> str:
    if not rows:
        return f'<p class="muted">{escape(empty)}</p>'
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def render_status_page(status: dict[str, Any], now: datetime) -> str:
    queued = [[job["job_id"], _when(job["run_at"])] for job in status["queued"]]
    running = [[job_id] for job_id in status["in_progress"]]
    failed = [
        [_when(f["failed_at"]), f["job_id"], f["function"], f["agent"], f["error"]]
        for f in status["failed"]
    ]
    last = [
        [agent, function, _when(moment), _age(moment, now)]
        for agent, functions in sorted(status["last_success"].items())
        for function, moment in sorted(functions.items())
    ]
    facts = "".join(
        f'<div class="fact{" bad" if bad else ""}"><b>{count}</b>{escape(label)}</div>'
        for label, count, bad in (
            ("queued", len(queued), False),
            ("in progress", len(running), False),
            ("recent failures", len(failed), bool(failed)),
        )
    )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f'<meta http-equiv="refresh" content="{REFRESH_SECONDS}">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>ego-mcp queue</title><style>{STYLE}</style></head><body>"
        "<h1>ego-mcp queue</h1>"
        f'<p class="muted">as of {escape(_when(now.isoformat()))} UTC, '
        f"refreshing every {REFRESH_SECONDS} s</p>"
        f'<div class="facts">{facts}</div>'
        f'<p class="{"muted" if status.get("worker_seen") else "fact bad"}">'
        f"{escape(worker_line(status))}</p>"
        "<h2>Queued</h2>" + _table(["job", "run at (UTC)"], queued, "nothing queued")
        + "<h2>In progress</h2>" + _table(["job"], running, "nothing running")
        + "<h2>Recent failures</h2>"
        + _table(["failed at (UTC)", "job", "kind", "agent", "error"], failed, "no failures")
        + "<h2>Last success</h2>"
        + _table(["agent", "kind", "at", "age"], last, "no job has succeeded yet")
        + "</body></html>"
    )  # fmt: skip
