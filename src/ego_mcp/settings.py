"""Settings: the one place that reads the environment (prefix ``EGO_MCP_``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from difflib import get_close_matches
from pathlib import Path
from typing import Literal

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from ego_mcp.errors import ConfigError

AGENT_NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}[A-Za-z0-9]$|^[A-Za-z0-9]$")

LOCAL_MODELS = ("use-multilingual-v3", "all-MiniLM-L6-v2", "multilingual-e5-small")
DEFAULT_EMBEDDING_MODELS = {
    "local": "use-multilingual-v3",
    "gemini": "gemini-embedding-001",
    "openai": "text-embedding-3-small",
}


class Settings(BaseSettings):
    """Everything ego-mcp can be configured with; read once at start and passed down."""

    model_config = SettingsConfigDict(env_prefix="EGO_MCP_", extra="ignore", frozen=True)

    data_dir: Path = Path("~/.ego-mcp/data")
    workspace_dir: str | None = None
    companion_name: str = "Master"
    agent: str = "default"

    embedding_provider: Literal["local", "gemini", "openai"] = "local"
    embedding_model: str | None = None
    embedding_model_dir: Path | None = None

    redis_url: str | None = None
    chroma_url: str | None = None

    transport: Literal["stdio", "http"] = "stdio"
    http_host: str = "127.0.0.1"
    http_port: int = Field(default=8765, ge=1, le=65535)
    http_token: SecretStr | None = None
    agents_file: Path | None = None
    metrics_host: str = "127.0.0.1"
    metrics_port: int | None = Field(default=None, ge=1, le=65535)

    # None: the embedding model's calibrated value (memory/thresholds.py).
    dedup_threshold: float | None = Field(default=None, gt=0.0, lt=2.0)
    merge_threshold: float | None = Field(default=None, gt=0.0, lt=2.0)
    link_threshold: float | None = Field(default=None, gt=0.0, lt=2.0)

    consolidate_every_hours: int = Field(default=6, ge=1, le=168)
    merge_scan_hour_utc: int = Field(default=3, ge=0, le=23)
    episode_cleanup_every_hours: int = Field(default=24, ge=1, le=168)
    forget_undo_days: int = Field(default=7, ge=1, le=3650)
    # Fading (memory/fading.py): off unless a half-life is set; it cost recall on
    # LoCoMo (bench/fade_bench.py), so it is the user's choice, not a default.
    fade_half_life_days: float | None = Field(default=None, gt=0.0, le=36_500.0)
    fade_weight: float = Field(default=0.3, ge=0.0, le=1.0)

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    log_file: Path | None = None

    gemini_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("GEMINI_API_KEY", "EGO_MCP_GEMINI_API_KEY")
    )
    openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("OPENAI_API_KEY", "EGO_MCP_OPENAI_API_KEY")
    )

    @field_validator("transport", "embedding_provider", mode="before")
    @classmethod
    def _lower_case(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value  # HTTP is http

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_log_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("data_dir", "embedding_model_dir", "log_file", "agents_file")
    @classmethod
    def _expand_user(cls, value: Path | None) -> Path | None:
        return value.expanduser() if value is not None else None

    @field_validator("log_file")
    @classmethod
    def _log_folder_exists(cls, value: Path | None) -> Path | None:
        if value is not None and not value.parent.is_dir():
            raise ValueError(f"the folder {value.parent} does not exist; create it first")
        return value

    @field_validator("agent")
    @classmethod
    def _valid_agent(cls, value: str) -> str:
        if not AGENT_NAME_PATTERN.match(value):
            raise ValueError(
                "use 1-64 letters, digits, '_' or '-', starting and ending alphanumeric"
            )
        return value

    @field_validator("agents_file", "embedding_model_dir", "log_file", mode="before")
    @classmethod
    def _blank_path_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("workspace_dir", "redis_url", "chroma_url", "embedding_model")
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return value if value else None

    @field_validator("http_token")
    @classmethod
    def _blank_token_is_unset(cls, value: SecretStr | None) -> SecretStr | None:
        return value if value is not None and value.get_secret_value().strip() else None

    @model_validator(mode="after")
    def _thresholds_ordered(self) -> Settings:
        dedup, merge = self.dedup_threshold, self.merge_threshold
        if dedup is not None and merge is not None and not dedup <= merge:
            raise ValueError("EGO_MCP_DEDUP_THRESHOLD must not exceed EGO_MCP_MERGE_THRESHOLD")
        return self

    @model_validator(mode="after")
    def _one_way_to_authorise(self) -> Settings:
        if self.agents_file is not None and self.http_token is not None:
            raise ValueError(
                "EGO_MCP_AGENTS_FILE and EGO_MCP_HTTP_TOKEN both set: the agents file gives "
                "each agent its token, so unset EGO_MCP_HTTP_TOKEN"
            )
        return self

    @model_validator(mode="after")
    def _shared_store_needs_the_shared_lock(self) -> Settings:
        if self.chroma_url is not None and self.redis_url is None:
            raise ValueError(
                "EGO_MCP_CHROMA_URL is a store other processes can share, and links stay "
                "two-way only under a lock they share too: set EGO_MCP_REDIS_URL"
            )
        return self

    @model_validator(mode="after")
    def _embedding_usable(self) -> Settings:
        """Refused here, not on every tool call after the server has started."""
        model = self.resolved_embedding_model
        if self.embedding_provider == "local" and model not in LOCAL_MODELS:
            raise ValueError(
                f"EGO_MCP_EMBEDDING_MODEL: the local provider has {LOCAL_MODELS[0]} (the "
                f"default), {LOCAL_MODELS[1]} and {LOCAL_MODELS[2]}, not {model!r}"
            )
        key, variable = {
            "gemini": (self.gemini_api_key, "GEMINI_API_KEY"),
            "openai": (self.openai_api_key, "OPENAI_API_KEY"),
        }.get(self.embedding_provider, (SecretStr("local"), ""))
        if key is None or not key.get_secret_value().strip():
            raise ValueError(
                f"{variable}: required when EGO_MCP_EMBEDDING_PROVIDER="
                f"{self.embedding_provider} (or use the local provider, the default)"
            )
        return self

    @property
    def resolved_embedding_model(self) -> str:
        """The embedding model name, defaulting per provider."""
        return self.embedding_model or DEFAULT_EMBEDDING_MODELS[self.embedding_provider]

    def workspace_for(self, agent: str) -> Path | None:
        """The workspace folder of ``agent``; ``{agent}`` in the setting is replaced."""
        if self.workspace_dir is None:
            return None
        return Path(self.workspace_dir.replace("{agent}", agent)).expanduser()


def load_settings(**overrides: object) -> Settings:
    """Read settings from the environment; a bad value raises ConfigError naming the variable."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise ConfigError(_describe_validation_error(exc)) from None


def _describe_validation_error(exc: ValidationError) -> str:
    problems = []
    for error in exc.errors():
        location = [str(part) for part in error["loc"]]
        if location:
            variable = "EGO_MCP_" + location[0].upper()
            problems.append(f"{variable}: {error['msg']}")
        else:
            problems.append(str(error["msg"]).removeprefix("Value error, "))
    return "invalid setting: " + "; ".join(problems)


def unknown_variables(environment: Mapping[str, str]) -> list[tuple[str, str | None]]:
    """``EGO_MCP_*`` names no setting reads (a misspelling is otherwise silently ignored),
    each with the closest known name, if one is close."""
    known = [f"EGO_MCP_{name.upper()}" for name in Settings.model_fields]
    unknown = sorted(n for n in environment if n.startswith("EGO_MCP_") and n not in known)
    return [(name, _closest(name, known)) for name in unknown]


def _closest(name: str, known: list[str]) -> str | None:
    """The known name holding every word of ``name`` (EGO_MCP_PORT: EGO_MCP_HTTP_PORT),
    the shortest first; else the closest spelling."""
    words = set(name.removeprefix("EGO_MCP_").split("_"))
    holding = [k for k in known if words <= set(k.removeprefix("EGO_MCP_").split("_"))]
    if holding:
        return min(holding, key=len)
    return next(iter(get_close_matches(name, known, n=1)), None)
