"""People's names and aliases, pure: how a name finds its person, and what an alias may be."""

from __future__ import annotations

import pytest

from ego_mcp.ego import relationships
from ego_mcp.ego.service import _mentions
from ego_mcp.errors import InvalidInput
from ego_mcp.memory.recall.bm25 import Concept
from ego_mcp.memory.recall.names import name_groups, named_reading

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


@pytest.mark.parametrize(
    ("text", "name", "named"),
    [("José came by", "José", True), ("Joséphine came by", "José", False),
     ("Kené said hi", "Ken", False)],
)  # fmt: skip
def test_a_whole_word_is_whole_in_any_latin_script(text: str, name: str, named: bool) -> None:
    assert _mentions(text, name) is named


def test_the_companions_name_is_no_ones_alias() -> None:
    with pytest.raises(InvalidInput, match="aliases: master is the companion's name"):
        relationships.aliases(["master"], "Kenji", PEOPLE, reserved=("Master",))
    assert relationships.aliases(["Boss"], "Master", PEOPLE, reserved=("Master",)) == ["Boss"]


def test_names_keep_their_content_words_and_none_two_people_share() -> None:
    groups = name_groups([["Kenji Sato", "The Boss"], ["Aya Sato"]])
    assert groups == [frozenset({"kenji", "boss"}), frozenset({"aya"})]


def test_migrate_never_lets_an_alias_name_a_person_of_its_own() -> None:
    from datetime import UTC, datetime

    from ego_mcp.migrate.upstream import merge_relationships

    now = datetime(2026, 11, 27, tzinfo=UTC)
    upstream = {
        "Kenji": {"name": "Kenji", "aliases": ["Ken"]},
        "Ken": {"name": "Ken", "known_facts": ["a different Ken"]},
    }
    merged = merge_relationships(None, upstream, now)
    assert set(merged) == {"Kenji", "Ken"} and merged["Kenji"]["aliases"] == []
    ours = {"Kenji": relationships.new_person("Kenji") | {"aliases": ["Ken"]}}
    merged = merge_relationships(ours, {"Ken": {"name": "Ken", "known_facts": ["cello"]}}, now)
    assert set(merged) == {"Kenji"} and merged["Kenji"]["known_facts"] == ["cello"]
