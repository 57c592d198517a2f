"""Document storage: JSON documents by name, per agent, written atomically.

Embedded mode keeps them as files under the data dir; the interface lets distributed
mode keep them in Redis instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Protocol

from ego_mcp.errors import CorruptState
from ego_mcp.files import write_atomically

DOCUMENT_NAME = re.compile(r"^[a-z_]{1,40}$")
Document = dict[str, Any]


class DocumentStore(Protocol):
    def load(self, name: str) -> Document | None:
        """The document, or None if it was never saved; a corrupt one raises CorruptState."""
        ...

    def save(self, name: str, document: Document) -> None: ...


class FileDocumentStore:
    """One JSON file per document in ``directory``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, name: str) -> Path:
        if not DOCUMENT_NAME.match(name):
            raise ValueError(f"bad document name {name!r}")
        return self.directory / f"{name}.json"

    def load(self, name: str) -> Document | None:
        path = self.path(name)
        try:
            raw = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            document = json.loads(raw)
        except json.JSONDecodeError:
            raise CorruptState(
                f"the state file {path} is not valid JSON; repair it or move it aside "
                "(it is never reset silently)"
            ) from None
        if not isinstance(document, dict):
            raise CorruptState(f"the state file {path} does not hold a JSON object")
        return document

    def save(self, name: str, document: Document) -> None:
        text = json.dumps(document, ensure_ascii=False, indent=1)
        write_atomically(self.path(name), text, new_mode=0o600)
