"""The arq worker entry: ``ego-mcp worker`` (or ``arq worker.arq_entry.WorkerSettings``)."""
