"""Settings: defaults, environment parsing, and errors that name the variable."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ego_mcp.errors import ConfigError
from ego_mcp.settings import load_settings
from tests.helpers import run_cli


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("EGO_MCP_DATA_DIR", "EGO_MCP_AGENT", "EGO_MCP_DEDUP_THRESHOLD"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    assert settings.data_dir == Path("~/.ego-mcp/data").expanduser()
    assert settings.companion_name == "Master"
    # Unset thresholds are the embedding model's calibrated ones (memory/thresholds.py).
    assert (settings.dedup_threshold, settings.merge_threshold, settings.link_threshold) == (
        None,
        None,
        None,
    )
    assert settings.resolved_embedding_model == "use-multilingual-v3"
    assert settings.redis_url is None and settings.chroma_url is None


def test_environment_is_read_with_the_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EGO_MCP_AGENT", "nova")
    monkeypatch.setenv("EGO_MCP_LOG_LEVEL", "debug")
    monkeypatch.setenv("EGO_MCP_WORKSPACE_DIR", "/tmp/ws/{agent}")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    settings = load_settings()
    assert settings.agent == "nova"
    assert settings.log_level == "DEBUG"
    assert settings.workspace_for("nova") == Path("/tmp/ws/nova")
    assert settings.openai_api_key is not None
    assert settings.openai_api_key.get_secret_value() == "sk-test"


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("EGO_MCP_DEDUP_THRESHOLD", "high"),
        ("EGO_MCP_LINK_THRESHOLD", "-1"),
        ("EGO_MCP_TRANSPORT", "carrier-pigeon"),
        ("EGO_MCP_AGENT", "no spaces/allowed"),
        ("EGO_MCP_HTTP_PORT", "70000"),
        ("EGO_MCP_EMBEDDING_PROVIDER", "magic"),
    ],
)
def test_bad_value_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError, match=variable):
        load_settings()


def test_dedup_above_merge_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EGO_MCP_DEDUP_THRESHOLD", "0.2")
    monkeypatch.setenv("EGO_MCP_MERGE_THRESHOLD", "0.1")
    with pytest.raises(ConfigError, match="EGO_MCP_DEDUP_THRESHOLD must not exceed"):
        load_settings()


def test_thresholds_are_the_models_unless_set() -> None:
    from ego_mcp.memory.thresholds import MODEL_THRESHOLDS, SEED_THRESHOLDS, thresholds_for

    assert (
        thresholds_for("use-multilingual-v3", None, None, None)
        == (MODEL_THRESHOLDS["use-multilingual-v3"])
    )
    assert thresholds_for("gemini-embedding-001", None, None, None) == SEED_THRESHOLDS
    assert thresholds_for("all-MiniLM-L6-v2", None, None, 0.4).link == 0.4
    with pytest.raises(ConfigError, match="EGO_MCP_DEDUP_THRESHOLD"):
        thresholds_for("use-multilingual-v3", 0.5, None, None)


def test_log_file_folder_must_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EGO_MCP_LOG_FILE", str(tmp_path / "missing" / "ego.log"))
    with pytest.raises(ConfigError, match=r"EGO_MCP_LOG_FILE: .*does not exist"):
        load_settings()
    assert not (tmp_path / "missing").exists()
    monkeypatch.setenv("EGO_MCP_LOG_FILE", str(tmp_path / "ego.log"))
    assert load_settings().log_file == tmp_path / "ego.log"


def test_a_chroma_server_without_redis_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EGO_MCP_CHROMA_URL", "http://127.0.0.1:8000")
    monkeypatch.delenv("EGO_MCP_REDIS_URL", raising=False)
    with pytest.raises(ConfigError, match="set EGO_MCP_REDIS_URL"):
        load_settings()
    monkeypatch.setenv("EGO_MCP_REDIS_URL", "redis://127.0.0.1:6379")
    assert load_settings().chroma_url == "http://127.0.0.1:8000"


@pytest.mark.parametrize(
    "variable", ["EGO_MCP_EMBEDDING_MODEL_DIR", "EGO_MCP_LOG_FILE", "EGO_MCP_AGENTS_FILE"]
)
def test_a_blank_path_is_unset(monkeypatch: pytest.MonkeyPatch, variable: str) -> None:
    """``VAR=`` (as a shell or a compose file writes an unset value) is not the folder '.'."""
    monkeypatch.setenv(variable, "")
    field = variable.removeprefix("EGO_MCP_").lower()
    assert getattr(load_settings(), field) is None


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_a_blank_token_is_no_token(monkeypatch: pytest.MonkeyPatch, blank: str) -> None:
    monkeypatch.setenv("EGO_MCP_HTTP_TOKEN", blank)
    assert load_settings().http_token is None


@pytest.mark.parametrize(
    ("variables", "named"),
    [
        ({"EGO_MCP_EMBEDDING_PROVIDER": "openai"}, "OPENAI_API_KEY: required"),
        ({"EGO_MCP_EMBEDDING_PROVIDER": "gemini"}, "GEMINI_API_KEY: required"),
        ({"EGO_MCP_EMBEDDING_MODEL": "bogus"}, "EGO_MCP_EMBEDDING_MODEL: the local provider"),
    ],
)
def test_an_embedding_that_cannot_work_is_refused_at_start(
    monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], named: str
) -> None:
    for name in ("OPENAI_API_KEY", "GEMINI_API_KEY", "EGO_MCP_GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=named):
        load_settings()


def test_a_misspelt_setting_is_warned_about_once_with_the_closest_name(tmp_path: Path) -> None:
    env = {**os.environ, "EGO_MCP_DATA_DIR": str(tmp_path), "EGO_MCP_REDIS_ULR": "redis://x"}
    done = run_cli(env, "forgotten")
    warned = [line for line in done.stderr.splitlines() if "EGO_MCP_REDIS_ULR" in line]
    assert len(warned) == 1
    assert "did you mean EGO_MCP_REDIS_URL?" in warned[0]


def test_a_name_missing_a_word_suggests_the_setting_that_holds_it() -> None:
    from ego_mcp.settings import unknown_variables

    found = dict(unknown_variables({"EGO_MCP_PORT": "8000", "EGO_MCP_REDIS": "x"}))
    assert found == {"EGO_MCP_PORT": "EGO_MCP_HTTP_PORT", "EGO_MCP_REDIS": "EGO_MCP_REDIS_URL"}


def test_a_choice_in_capitals_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EGO_MCP_TRANSPORT", "HTTP")
    monkeypatch.setenv("EGO_MCP_EMBEDDING_PROVIDER", "Local")
    settings = load_settings()
    assert (settings.transport, settings.embedding_provider) == ("http", "local")


def test_help_is_plain_text(tmp_path: Path) -> None:
    done = run_cli({**os.environ, "EGO_MCP_DATA_DIR": str(tmp_path)}, "--help")
    assert done.returncode == 0 and "``" not in done.stdout and "serve" in done.stdout


def test_no_top_level_worker_module_is_installed(tmp_path: Path) -> None:
    """Only the package installs: the repository's worker/ is the checkout's arq entry."""
    import subprocess
    import sys

    found = subprocess.run(
        [sys.executable, "-c", "import importlib.util; print(importlib.util.find_spec('worker'))"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert found.stdout.strip() == "None"
