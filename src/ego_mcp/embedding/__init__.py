"""Embedding providers: ``local`` (ONNX MiniLM, multilingual USE or multilingual E5),
``gemini``, ``openai``."""

from __future__ import annotations

from ego_mcp.embedding.base import Embedder, EmbeddingSignature
from ego_mcp.errors import ConfigError
from ego_mcp.settings import Settings

__all__ = ["Embedder", "EmbeddingSignature", "create_embedder"]


def create_embedder(settings: Settings) -> Embedder:
    """The embedder the settings ask for; a missing API key is a ConfigError."""
    if settings.embedding_provider == "local":
        if settings.resolved_embedding_model == "use-multilingual-v3":
            from ego_mcp.embedding.multilingual import LocalMultilingualUSE

            return LocalMultilingualUSE()
        if settings.resolved_embedding_model == "multilingual-e5-small":
            from ego_mcp.embedding.e5 import LocalE5

            return LocalE5()
        from ego_mcp.embedding.local import MODEL_NAME, LocalMiniLM, resolve_model_dir

        if settings.resolved_embedding_model != MODEL_NAME:
            raise ConfigError(
                "EGO_MCP_EMBEDDING_MODEL: the local provider has use-multilingual-v3, "
                "all-MiniLM-L6-v2 and multilingual-e5-small"
            )
        return LocalMiniLM(resolve_model_dir(settings.embedding_model_dir))

    from ego_mcp.embedding.remote import RemoteEmbedder

    key = (
        settings.gemini_api_key
        if settings.embedding_provider == "gemini"
        else settings.openai_api_key
    )
    if key is None:
        variable = "GEMINI_API_KEY" if settings.embedding_provider == "gemini" else "OPENAI_API_KEY"
        raise ConfigError(f"{variable}: required when EGO_MCP_EMBEDDING_PROVIDER is remote")
    return RemoteEmbedder(
        settings.embedding_provider, settings.resolved_embedding_model, key.get_secret_value()
    )
