"""Background jobs: the queue interface, the in-process runner and (distributed) arq."""
