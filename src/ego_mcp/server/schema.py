"""Keeps tool definitions small: the agent pays for every token of every schema."""

from __future__ import annotations

from typing import Any


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The same input schema without titles, with ``X | None`` written as plain ``X``,
    and without defaults that say nothing (none, false, empty text).

    Arguments are still validated against the full signature; this only trims what the
    client is shown.
    """
    properties = {
        name: _compact_property(spec) for name, spec in schema.get("properties", {}).items()
    }
    _point_to_repeated_choices(properties)
    compact: dict[str, Any] = {"type": "object", "properties": properties}
    if schema.get("required"):
        compact["required"] = schema["required"]
    return compact


def _point_to_repeated_choices(properties: dict[str, Any]) -> None:
    """A list whose items take the choices of an argument before it (remember's
    ``secondary`` emotions, as its ``emotion``) points to that argument instead of
    repeating the list: a JSON pointer (``#/properties/emotion``), the same schema."""
    seen: dict[tuple[str, ...], str] = {}
    for name, spec in properties.items():
        items = spec.get("items")
        if isinstance(items, dict) and "enum" in items:
            choices = tuple(items["enum"])
            if choices in seen:
                spec["items"] = {"$ref": f"#/properties/{seen[choices]}"}
        if "enum" in spec:
            seen.setdefault(tuple(spec["enum"]), name)


def _compact_property(spec: dict[str, Any]) -> dict[str, Any]:
    result = {key: value for key, value in spec.items() if key != "title"}
    options = result.pop("anyOf", None)
    if options is not None:
        non_null = [option for option in options if option.get("type") != "null"]
        if len(non_null) == 1:
            result.update(non_null[0])
        else:
            result["anyOf"] = non_null
    if _says_nothing(result.get("default", ...)):
        del result["default"]
    return result


def _says_nothing(default: object) -> bool:
    """A default that leaving the argument out already says: none, false, empty text (a
    zero is kept: it is a value)."""
    return default is None or default is False or default == ""
