"""What a stdio server imports before it answers the handshake: the SDK and the front end.
The store's libraries load in the thread that opens it (``open_app_context``), so they do
not add to the time a client waits for ``tools/list``."""

from __future__ import annotations

import json
import subprocess
import sys

# Libraries the store, the model or the queue need, never the handshake.
LOADED_WITH_THE_STORE = ("chromadb", "numpy", "onnxruntime", "tokenizers", "redis", "arq")


def test_the_handshake_path_imports_none_of_the_stores_libraries() -> None:
    script = (
        "import json, sys\n"
        "import ego_mcp.cli, ego_mcp.server.app, ego_mcp.server.sharing.holder\n"
        "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(result.stdout))
    assert "mcp" in loaded  # the check sees what the front end imports
    assert loaded.isdisjoint(LOADED_WITH_THE_STORE), sorted(loaded & set(LOADED_WITH_THE_STORE))
