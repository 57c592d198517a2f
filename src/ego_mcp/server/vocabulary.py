"""Argument types of the tools: what each accepts, and the allowed values its schema lists.

An agent reads the input schema, so every closed vocabulary (emotions, categories, link
types, desires, self-model and relationship fields) is listed there as an ``enum``; the
tool bodies still check the value and name the argument when it is wrong.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BeforeValidator, WithJsonSchema

from ego_mcp.ego import relationships, self_model
from ego_mcp.ego.desires import SATISFACTION_HOURS
from ego_mcp.memory.inputs import FLAG_RULE, parse_flag
from ego_mcp.memory.model import Category, Emotion, LinkType
from ego_mcp.memory.recall import explore


def _flag(value: object) -> bool:
    parsed = parse_flag(value)
    if parsed is None:
        raise ValueError(FLAG_RULE)
    return parsed


Flag = Annotated[bool, BeforeValidator(_flag), WithJsonSchema({"type": "boolean"})]
EmotionName = Annotated[str, WithJsonSchema({"enum": [e.value for e in Emotion]})]
CategoryName = Annotated[str, WithJsonSchema({"enum": [c.value for c in Category]})]
LinkTypeName = Annotated[str, WithJsonSchema({"enum": [t.value for t in LinkType]})]
DesireName = Annotated[str, WithJsonSchema({"enum": list(SATISFACTION_HOURS)})]
SelfField = Annotated[str, WithJsonSchema({"enum": list(self_model.FIELDS)})]
RelationshipField = Annotated[str, WithJsonSchema({"enum": list(relationships.FIELDS)})]

# Text by name (remember's body_state); the tool body checks each value is text.
TextMap = Annotated[dict[str, str], WithJsonSchema({"type": "object"})]
# A list of texts (tags, ids): the schema says array and the items go unsaid, since an
# agent writes text anyway; the tool body checks each item by the argument's name.
Texts = Annotated[list[str], WithJsonSchema({"type": "array"})]


def _one_or_many(value: object) -> object:
    return [value] if isinstance(value, str) else value


# One name or a list of names (remember's shared_with, as upstream 1.7 takes it).
Names = Annotated[list[str], BeforeValidator(_one_or_many), WithJsonSchema({"type": "array"})]

# Numbers with their bounds in the schema (the tool bodies still check them by name).
Fraction = Annotated[float, WithJsonSchema({"type": "number", "minimum": 0, "maximum": 1})]
Signed = Annotated[float, WithJsonSchema({"type": "number", "minimum": -1, "maximum": 1})]
Importance = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 5})]
ResultCount = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 10})]
Depth = Annotated[
    int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": explore.MAX_DEPTH})
]


class RecallMode(StrEnum):
    SEARCH = "search"  # by a context's meaning and words
    EXPLORE = "explore"  # along the links around a seed memory


RecallModeName = Annotated[str, WithJsonSchema({"enum": [m.value for m in RecallMode]})]
