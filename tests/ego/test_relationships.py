"""People's names and aliases, pure: how a name finds its person, and what an alias may be."""

from __future__ import annotations

import pytest

from ego_mcp.ego import relationships
from ego_mcp.ego.service import _mentions
from ego_mcp.errors import InvalidInput
from ego_mcp.memory.bm25 import Concept
from ego_mcp.memory.names import name_groups, named_reading

PEOPLE = {
    "Kenji": relationships.new_person("Kenji") | {"aliases": ["Ken", "健二"]},
    "Aya": relationships.new_person("Aya"),
}


@pytest.mark.parametrize(
    ("name", "person"),
    [("Kenji", "Kenji"), ("ken", "Kenji"), ("ＫＥＮ", "Kenji"), ("健二", "Kenji"), ("Aya", "Aya"),
     ("Kent", "Kent")],
)  # fmt: skip
def test_a_name_or_alias_finds_its_person(name: str, person: str) -> None:
    assert relationships.resolve(PEOPLE, name) == person


def test_an_alias_may_not_name_someone_else() -> None:
    assert relationships.aliases("Kenny", "Kenji", PEOPLE) == ["Kenny"]
    assert relationships.aliases(["ken"], "Kenji", PEOPLE) == ["ken"]  # their own already
    with pytest.raises(InvalidInput, match="aliases: aya already names Aya"):
        relationships.aliases(["aya"], "Kenji", PEOPLE)
    with pytest.raises(InvalidInput, match="aliases takes a name or a list"):
        relationships.aliases({"name": "K"}, "Kenji", PEOPLE)


@pytest.mark.parametrize(
    ("text", "name", "named"),
    [("What did Ken do?", "Ken", True), ("Kent's umbrella", "Ken", False),
     ("ken's bike", "Ken", True), ("健二は来なかった", "健二", True), ("Kenの自転車", "Ken", True)],
)  # fmt: skip
def test_a_text_names_a_person_by_a_whole_word(text: str, name: str, named: bool) -> None:
    assert _mentions(text, name) is named


def test_a_query_reads_a_persons_names_as_one_term() -> None:
    groups = name_groups([["Kenji", "Ken", "健二"]])
    reading = named_reading(["ken", "bike"], groups)
    assert Concept(frozenset({"kenji", "ken", "健二"}), False) in reading
    assert Concept.of("bike") in reading
    assert named_reading(["aya", "bike"], groups) == []
