"""The demo tournament gives byte-identical standings however it is played: bots kept between
matches or a new process for every match, one worker or two, and killed midway then resumed.

Each run plays the whole demo (twelve four-player matches of the reference bots), so these are
marked slow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ..commands import ROOT
from .runs import kill_midway, run_bracket, stored

DEMO = ROOT / "tournaments" / "demo.yaml"
pytestmark = pytest.mark.slow


def run_demo(db: Path, *args: str, bracket: Path = DEMO) -> str:
    return run_bracket(bracket, db, *args)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The demo as it is written: two workers, bots kept between matches."""
    return run_demo(tmp_path_factory.mktemp("demo") / "demo.db")


def test_one_worker(reference: str, tmp_path: Path) -> None:
    assert run_demo(tmp_path / "demo.db", "--workers", "1") == reference


def test_a_fresh_process_for_every_match(reference: str, tmp_path: Path) -> None:
    bracket = tmp_path / "demo.yaml"
    bracket.write_text(DEMO.read_text() + "fresh_process: true\n")
    assert run_demo(tmp_path / "demo.db", bracket=bracket) == reference


def test_killed_then_resumed(reference: str, tmp_path: Path, tag: str) -> None:
    db = tmp_path / "demo.db"
    kill_midway(DEMO, db, tag, after=3)
    assert 3 <= stored(db) < 12
    assert run_demo(db) == reference
