"""The English pipeline's batches: the same parses as one by one, kept for reuse."""

from __future__ import annotations

import subprocess
import sys

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


SPACY_PROBE = """
import sys
from ego_mcp.memory.guard.judgement import differences

verdict, _ = differences("I owe Tom 50 dollars.", "Tom owes me 50 dollars.")
loaded = sorted(m for m in ("spacy.cli", "typer", "weasel", "jinja2") if m in sys.modules)
import spacy
import spacy.cli

print(verdict.value, loaded, hasattr(spacy.cli, "setup_cli"), "spacy_version" in spacy.info())
"""


def test_the_parser_is_loaded_without_spacys_command_line() -> None:
    # In a process of its own: the suite's other tests may have imported spaCy already.
    result = subprocess.run(
        [sys.executable, "-c", SPACY_PROBE], capture_output=True, text=True, check=True
    )
    # Compared, with none of the CLI's modules loaded; spacy.cli is still the real
    # package when it is asked for afterwards.
    assert result.stdout.split() == ["distinct", "[]", "True", "True"]
