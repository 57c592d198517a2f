"""The memory domain: model, storage interfaces, input rules and the service."""
