"""spaCy imported as a library, without its command-line interface.

``import spacy`` runs ``from .cli.info import info`` only to offer ``spacy.info``; that
loads every command of spaCy's CLI and what they use (typer, weasel, requests, jinja2):
about 15 MiB resident in the server, which parses and never runs a command. While spaCy
is first imported, a placeholder stands for ``spacy.cli`` and ``spacy.cli.info``; it is
taken out of ``sys.modules`` after, so a later ``import spacy.cli`` loads the real package,
and the placeholder's ``info`` calls the real one. Until something imports ``spacy.cli``,
the ``spacy`` module has no ``cli`` attribute to reach it by; nothing in this process
needs one, and a thread importing ``spacy.cli`` itself during the first import (about
0.4 s) would find the placeholder.
"""

from __future__ import annotations

import sys
import threading
from types import ModuleType
from typing import Any

_CLI, _CLI_INFO = "spacy.cli", "spacy.cli.info"
_lock = threading.Lock()


def import_spacy() -> None:
    """Imports the ``spacy`` package, the first time without its CLI; ``import spacy``
    after it finds the package loaded."""
    with _lock:
        if "spacy" in sys.modules:
            return
        placeholders = {_CLI: ModuleType(_CLI), _CLI_INFO: ModuleType(_CLI_INFO)}
        placeholders[_CLI_INFO].info = _info  # type: ignore[attr-defined]
        placeholders[_CLI].info = placeholders[_CLI_INFO]  # type: ignore[attr-defined]
        sys.modules.update(placeholders)
        try:
            import spacy  # noqa: F401
        finally:
            for name, module in placeholders.items():
                if sys.modules.get(name) is module:
                    del sys.modules[name]


def _info(*args: Any, **kwargs: Any) -> Any:
    from spacy.cli.info import info

    return info(*args, **kwargs)
