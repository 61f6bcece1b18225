"""Every format's example bracket, and the two-stage one, played from ``tournaments/``: byte-identical
standings with one worker or two, and after a SIGKILL midway and a resume, without a match played
twice. Each run plays a whole example with the reference bots, so these are marked slow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..commands import ROOT
from .runs import kill_midway, run_bracket, standings, stored, stored_ids

pytestmark = pytest.mark.slow

EXAMPLES = ["gauntlet", "swiss", "knockout", "stages"]


@pytest.fixture(scope="module", params=EXAMPLES)
def reference(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The example as it is written (two workers): its name and database."""
    name: str = request.param
    db = tmp_path_factory.mktemp(name) / f"{name}.db"
    run_bracket(ROOT / "tournaments" / f"{name}.yaml", db)
    return name, db


def test_one_worker_gives_the_same_matches_and_standings(reference: tuple[str, Path], tmp_path: Path) -> None:
    name, first = reference
    db = tmp_path / "one.db"
    assert run_bracket(ROOT / "tournaments" / f"{name}.yaml", db, "--workers", "1") == standings(first)
    assert stored_ids(db) == stored_ids(first)


def test_killed_then_resumed_plays_no_match_twice(
    reference: tuple[str, Path], tmp_path: Path, tag: str
) -> None:
    name, first = reference
    bracket = ROOT / "tournaments" / f"{name}.yaml"
    db = tmp_path / "resumed.db"
    kill_midway(bracket, db, tag, after=3)
    interrupted = stored_ids(db)
    assert 3 <= len(interrupted) < stored(first)
    assert run_bracket(bracket, db) == standings(first)
    resumed = stored_ids(db)
    assert resumed == stored_ids(first) and len(set(resumed)) == len(resumed)
    assert set(interrupted) <= set(resumed)


def test_a_stage_has_standings_of_its_own(reference: tuple[str, Path]) -> None:
    name, db = reference
    if name != "stages":
        pytest.skip("a bracket of one stage")
    final = json.loads(standings(db, "--stage", "final"))
    groups = json.loads(standings(db, "--stage", "groups"))
    assert len(final) == 2 and len(groups) == 6
    assert {row["name"] for row in final} <= {row["name"] for row in groups}
    assert all(row["matches"] == 4 for row in final)


def test_a_knockout_names_one_champion_first(reference: tuple[str, Path]) -> None:
    name, db = reference
    if name != "knockout":
        pytest.skip("not a knockout")
    rows = json.loads(standings(db))
    assert [list(row)[:2] for row in rows] == [["placing", "seed"]] * 5
    assert [row["placing"] for row in rows] == [
        "champion",
        "finalist",
        "semi-finalist",
        "semi-finalist",
        "quarter-finalist",
    ]
    # Seeds 4 and 5 play the first level, seeds 1, 2 and 3 wait for them: its loser goes out first.
    assert rows[-1]["seed"] in (4, 5) and rows[-1]["matches"] == 2
