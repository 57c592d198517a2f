"""The WordNet reader and the JMdict glosses the guard matches words through."""

from __future__ import annotations

from ego_mcp.memory.guard.glosses import glosses
from ego_mcp.memory.guard.wordnet import ANTONYM, PERTAINYM, near, wordnet


def test_wordnet_finds_senses_by_binary_search_in_its_own_files() -> None:
    net = wordnet()
    assert net is not None
    assert set(net.offsets("buy", "v")) & set(net.offsets("purchase", "v"))
    assert net.offsets("coworker", "n") == net.offsets("co-worker", "n")  # written solid
    assert net.offsets("xyzzyplugh", "n") == ()
    assert net.offsets("aardvark", "n")  # the first entry after the licence header
    assert net.offsets("zymurgy", "n")  # and the last


def test_wordnet_gives_antonyms_and_derivations_of_the_word_itself() -> None:
    net = wordnet()
    assert net is not None
    assert "sell" in net.related("buy", "v", ANTONYM)
    assert "borrow" in net.related("lend", "v", ANTONYM)
    assert "happy" in net.related("happily", "r", PERTAINYM)
    assert net.related("almost", "r", PERTAINYM) == frozenset()


def test_near_is_one_step_never_two_things_of_one_kind() -> None:
    net = wordnet()
    assert net is not None
    assert near(net, "queue", "line", "n")  # a narrower sense
    assert near(net, "huge", "enormous", "a")  # one adjective cluster
    assert not near(net, "apple", "pear", "n")  # co-hyponyms
    assert not near(net, "cheap", "expensive", "a")


def test_glosses_read_first_senses_without_notes_or_explanations() -> None:
    reader = glosses()
    assert reader is not None
    assert "near" in reader.of("近く") and "near" in reader.of("そば")
    assert reader.of("買う")[:2] == ("buy", "purchase")  # "to" dropped
    assert "older_brother" in reader.of("兄") and "brother" not in reader.of("兄")
    assert not set(reader.of("兄")) & set(reader.of("弟"))
