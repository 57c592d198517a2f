"""An agent with everything an export carries, and what to compare after a round trip."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ego_mcp.backup.format import DOCUMENTS
from ego_mcp.memory.model import DeletedMemory, Episode, LinkType, Memory
from ego_mcp.runtime import Runtime
from tests.helpers import save, snapshot

PUBLIC = (
    "Master and I walked along the river at dawn and counted herons.",
    "The herons by the river were back again this morning.",
    "LOG-131 broke the nightly job; the parser choked on a tab.",
    "マスターと一緒に秋葉原で古い真空管ラジオを探した。",
)
PRIVATE = "PRIVATE-MARKER-7f3a: I hid the letter inside the blue teapot."
FORGOTTEN = "A dull note about the weather that I decided to let go of."
DOCUMENT_CONTENT: dict[str, dict[str, Any]] = {
    "self_model": {"traits": ["curious"], "open_questions": [{"q": "why herons?"}]},
    "relationships": {"Master": {"trust": 0.9, "notes": ["likes rivers"]}},
    "desires": {"curiosity": {"last_satisfied": "2026-05-01T09:00:00+00:00"}},
}


@dataclass
class Agent:
    memories: dict[str, Memory]
    episodes: list[Episode]
    documents: dict[str, Any]
    deleted: list[DeletedMemory]


def build(runtime: Runtime, agent: str) -> dict[str, str]:
    """Save the inner life into ``agent``; text -> id of what is still there."""
    memory = runtime.memory(agent)
    ids = {text: save(memory, text) for text in (*PUBLIC, FORGOTTEN)}
    ids[PRIVATE] = save(memory, PRIVATE, is_private=True)
    memory.link(ids[PUBLIC[0]], ids[PRIVATE], LinkType.LEADS_TO, "then I hid it", 0.9)
    memory.link(ids[PUBLIC[2]], ids[PUBLIC[3]], LinkType.RELATED)
    memory.create_episode("Mornings by the river", [ids[PUBLIC[0]], ids[PUBLIC[1]]], 4)
    documents = runtime.documents(agent)
    for name, content in DOCUMENT_CONTENT.items():
        documents.save(name, content)
    memory.forget(ids.pop(FORGOTTEN))
    return ids


def read(runtime: Runtime, agent: str) -> Agent:
    memory = runtime.memory(agent)
    documents = runtime.documents(agent)
    return Agent(
        memories=snapshot(memory.store),
        episodes=sorted(memory.episodes.all(), key=lambda e: e.id),
        documents={name: documents.load(name) for name in DOCUMENTS},
        deleted=memory.forgotten(),
    )
