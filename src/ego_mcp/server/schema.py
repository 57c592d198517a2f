"""Keeps tool definitions small: the agent pays for every token of every schema."""

from __future__ import annotations

from typing import Any


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The same input schema without titles, and with ``X | None`` written as plain ``X``.

    Arguments are still validated against the full signature; this only trims what the
    client is shown.
    """
    properties = {
        name: _compact_property(spec) for name, spec in schema.get("properties", {}).items()
    }
    compact: dict[str, Any] = {"type": "object", "properties": properties}
    if schema.get("required"):
        compact["required"] = schema["required"]
    return compact


def _compact_property(spec: dict[str, Any]) -> dict[str, Any]:
    result = {key: value for key, value in spec.items() if key != "title"}
    options = result.pop("anyOf", None)
    if options is not None:
        non_null = [option for option in options if option.get("type") != "null"]
        if len(non_null) == 1:
            result.update(non_null[0])
        else:
            result["anyOf"] = non_null
    if result.get("default", ...) is None:
        del result["default"]
    return result
