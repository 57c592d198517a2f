"""An export or import as one value: run here, or sent to the process holding the store."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ego_mcp.backup.exporter import Progress, export_agent
from ego_mcp.backup.importer import import_agent
from ego_mcp.errors import ConfigError

if TYPE_CHECKING:
    from ego_mcp.runtime import Runtime

ACTIONS = ("export", "import")


@dataclass(frozen=True)
class BackupCommand:
    """``action`` on ``agent`` with the file at ``path`` (absolute: the holder of the store
    may run it from another working directory)."""

    action: str
    agent: str
    path: str
    exclude_private: bool = False
    include_forgotten: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> BackupCommand:
        command = cls(
            action=str(body["action"]),
            agent=str(body["agent"]),
            path=str(body["path"]),
            exclude_private=bool(body.get("exclude_private", False)),
            include_forgotten=bool(body.get("include_forgotten", False)),
        )
        if command.action not in ACTIONS or not Path(command.path).is_absolute():
            raise ValueError(command.action)
        return command


def run(runtime: Runtime, command: BackupCommand, progress: Progress | None = None) -> str:
    """Run ``command`` with ``runtime``'s store; its summary, for the operator."""
    path = Path(command.path)
    if command.action == "import":
        return import_agent(
            runtime, command.agent, path, progress, command.include_forgotten
        ).render()
    if command.agent not in runtime.agents():
        raise ConfigError(f"--agent: the store has no agent {command.agent}; nothing written")
    try:
        summary = export_agent(runtime, command.agent, path, command.exclude_private, progress)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ConfigError(f"--out: cannot write {path} ({reason}); nothing was written") from None
    return summary.render()
