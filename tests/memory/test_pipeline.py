"""The English pipeline's batches: the same parses as one by one, kept for reuse."""

from __future__ import annotations

from ego_mcp.memory.guard.english.pipeline import _pipeline, parse, parse_all

TEXTS = [
    "Master bought a used road bike from a coworker.",
    "Ken moved the meeting from 5 pm to 3 pm.",
    "Only Aya came to the party, and she left early.",
]


def _annotations(doc: object) -> list[tuple[str, str, int, str]]:
    return [(t.tag_, t.dep_, t.head.i, t.lemma_) for t in doc]  # type: ignore[attr-defined]


def test_a_batch_parses_each_text_as_alone() -> None:
    batch = parse_all(TEXTS)
    for text, doc in zip(TEXTS, batch, strict=True):
        alone = _pipeline()(text)
        assert [(t.tag_, t.dep_, t.head.i) for t in doc] == [
            (t.tag_, t.dep_, t.head.i) for t in alone
        ]


def test_a_text_parsed_in_a_batch_is_not_parsed_again() -> None:
    first = parse_all([*TEXTS, TEXTS[0]])
    assert first[0] is first[-1]
    assert parse(TEXTS[1]) is first[1]
    assert _annotations(parse(TEXTS[2])) == _annotations(first[2])
