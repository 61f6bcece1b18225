"""The SPRT of tournaments/sprt.yaml with the reference bots (seeded): search against greedy is
accepted as stronger (H1), greedy against itself as not (H0). Marked slow: tens of real matches."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ..commands import ROOT, invoke
from .runs import stored

pytestmark = pytest.mark.slow

SPRT = ROOT / "tournaments" / "sprt.yaml"


def verdict(bracket: Path, db: Path) -> tuple[str, int]:
    """The run's SPRT line and how many pairs it says were played."""
    code, output = invoke("run", str(bracket), "--db", str(db))
    assert code == 0, output
    found = re.search(r"SPRT: (H[01] accepted), LLR -?\d+\.\d\d \(-2\.94, 2\.94\) after (\d+) pairs", output)
    assert found is not None, output
    return found[1], int(found[2])


def test_search_is_accepted_as_stronger_than_greedy(tmp_path: Path) -> None:
    db = tmp_path / "sprt.db"
    result, pairs = verdict(SPRT, db)
    assert result == "H1 accepted"
    assert stored(db) == 2 * pairs
    assert verdict(SPRT, db) == (result, pairs), "a resumed run must reach the same verdict"


def test_greedy_against_itself_is_accepted_as_no_stronger(tmp_path: Path) -> None:
    bracket = tmp_path / "sprt.yaml"
    bracket.write_text(
        SPRT.read_text().replace(
            "name: search\n    command: python -m bots.search",
            "name: greedy-2\n    command: python -m bots.greedy",
        )
    )
    db = tmp_path / "sprt.db"
    result, pairs = verdict(bracket, db)
    assert result == "H0 accepted"
    assert stored(db) == 2 * pairs
