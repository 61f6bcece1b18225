"""The Python examples of docs/rules-masons.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules-masons.md"
BLOCKS = re.findall(
    r"^```python[ \t]*\n(.*?)^```[ \t]*$", DOC.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL
)


def test_the_rules_page_has_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("source", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_rules_page_example_runs(source: str) -> None:
    exec(compile(source, DOC.name, "exec"), {"__name__": "__doc_example__"})
