"""Strict tool arguments: an unknown name or a wrong JSON type is an error, never ignored.

The SDK validates arguments leniently: it drops unknown names, turns ``"on"`` into
``True`` and parses JSON hidden inside strings. A misspelt ``privte=true`` would then
save a public memory. Here every tool's argument model forbids extra names and runs in
pydantic's strict mode, and a failure becomes one ``InvalidInput`` line that names the
argument and never echoes its value.
"""

from __future__ import annotations

import difflib
from typing import Any

from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from pydantic import ConfigDict, ValidationError

from ego_mcp.errors import InvalidInput

MAX_NAME_CHARS = 40


class StrictArguments(FuncMetadata):
    """The SDK's argument metadata of one tool, validated strictly."""

    tool: str

    def validate_arguments(self, arguments_to_validate: dict[str, Any]) -> dict[str, Any]:
        try:
            parsed = self.arg_model.model_validate(arguments_to_validate)
        except ValidationError as error:
            known = list(self.arg_model.model_fields)
            raise InvalidInput(describe_invalid_arguments(self.tool, known, error)) from None
        return parsed.model_dump_one_level()


def strict(tool: str, metadata: FuncMetadata) -> StrictArguments:
    """``metadata`` with an argument model that forbids unknown names and coercion."""

    class Strict(metadata.arg_model):  # type: ignore[name-defined,misc]
        model_config = ConfigDict(extra="forbid", strict=True)

    Strict.__name__ = metadata.arg_model.__name__
    model: type[ArgModelBase] = Strict
    return StrictArguments(
        tool=tool,
        arg_model=model,
        output_schema=metadata.output_schema,
        output_model=metadata.output_model,
        wrap_output=metadata.wrap_output,
    )


def describe_invalid_arguments(tool: str, known: list[str], error: ValidationError) -> str:
    """One line naming each bad argument; the rejected values are never echoed."""
    unknown: list[str] = []
    problems: list[str] = []
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "arguments"
        if item["type"] == "extra_forbidden":
            unknown.append(unknown_argument(tool, field, known))
        elif item["type"] == "missing":
            problems.append(f"{field} is required")
        else:
            problems.append(f"{field}: {str(item['msg']).removeprefix('Value error, ')}")
    if problems:
        unknown.append(f"Invalid arguments for {tool}: " + "; ".join(problems))
    return "; ".join(unknown)


def unknown_argument(tool: str, name: str, known: list[str]) -> str:
    """``unknown argument 'privte' for remember; did you mean 'private'?``"""
    message = f"unknown argument '{name[:MAX_NAME_CHARS]}' for {tool}"
    closest = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if closest:
        return f"{message}; did you mean '{closest[0]}'?"
    allowed = ", ".join(known) if known else "none"
    return f"{message}; it takes: {allowed}"
