"""The code examples in the documentation run as written.

Every fenced ```python block of each game's rules page (``docs/rules-*.md``) and the ``::``
example in the Saint Malo package docstring are executed, each in a fresh namespace.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from sdk.games import saint_malo

ROOT = Path(__file__).resolve().parent.parent
RULES_DOCS = sorted((ROOT / "docs").glob("rules-*.md"))
#: How many examples each rules page must keep: two, but Saint Malo's page, which has one.
MIN_EXAMPLES = {"rules-saint-malo.md": 1}

_FENCED_PYTHON = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def python_blocks(markdown: str) -> list[str]:
    """The bodies of the fenced ```python blocks, in order."""
    return [match.group(1) for match in _FENCED_PYTHON.finditer(markdown)]


def literal_blocks(docstring: str) -> list[str]:
    """The indented blocks that follow a line ending in ``::`` (reST literal blocks), dedented."""
    blocks: list[str] = []
    lines = docstring.splitlines()
    for index, line in enumerate(lines):
        if not line.rstrip().endswith("::"):
            continue
        body: list[str] = []
        for following in lines[index + 1 :]:
            if following.strip() and not following[:1].isspace():
                break
            body.append(following)
        blocks.append(textwrap.dedent("\n".join(body)).strip("\n") + "\n")
    return blocks


def run(source: str, name: str) -> None:
    """Execute example code as a script of its own."""
    exec(compile(source, name, "exec"), {"__name__": "__doc_example__"})


RULES_BLOCKS = {doc.name: python_blocks(doc.read_text(encoding="utf-8")) for doc in RULES_DOCS}
PACKAGE_BLOCKS = literal_blocks(saint_malo.__doc__ or "")


def test_the_documents_have_examples() -> None:
    assert {doc.name for doc in RULES_DOCS} >= {
        "rules-saint-malo.md", "rules-cities.md", "rules-masons.md", "rules-bruges.md"
    }  # fmt: skip
    for name, blocks in RULES_BLOCKS.items():
        assert len(blocks) >= MIN_EXAMPLES.get(name, 2), f"too few ```python blocks in {name}"
    assert PACKAGE_BLOCKS, "no example found in the saint_malo package docstring"


@pytest.mark.parametrize(
    ("name", "source"),
    [(name, source) for name, blocks in RULES_BLOCKS.items() for source in blocks],
    ids=[f"{name}-block{i}" for name, blocks in RULES_BLOCKS.items() for i in range(len(blocks))],
)
def test_rules_doc_example_runs(name: str, source: str) -> None:
    run(source, f"{name} example")


@pytest.mark.parametrize("source", PACKAGE_BLOCKS, ids=[f"block{i}" for i in range(len(PACKAGE_BLOCKS))])
def test_package_docstring_example_runs(source: str) -> None:
    run(source, "saint_malo docstring example")


def test_block_extraction() -> None:
    markdown = "text\n```python\nx = 1\n```\n```text\nno\n```\n```python\ny = 2\n```\n"
    assert python_blocks(markdown) == ["x = 1\n", "y = 2\n"]
    docstring = "Intro::\n\n    a = 1\n\n    b = a\nAfter.\n"
    assert literal_blocks(docstring) == ["a = 1\n\nb = a\n"]
