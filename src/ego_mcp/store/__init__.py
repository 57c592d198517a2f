"""ChromaDB: client construction, the directory lock, and the store implementations."""
