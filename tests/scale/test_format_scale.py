"""The example brackets of the formats whose schedules depend on results, and the two-stage one, on
PostgreSQL with a Ray cluster: the same matches and byte-identical standings as on SQLite with
local workers, also after the driver is killed midway and run again. Marked slow: each plays whole
examples with the reference bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..servers.postgres import PostgresServer
from ..tournament.runs import run_bracket, stored_ids
from .helpers import ROOT, cli, kill_after, run_args, standings_json, stored_match_ids

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", ["gauntlet", "swiss", "knockout", "stages"])
def test_postgresql_and_ray_give_the_same_matches_and_standings(
    name: str, tmp_path: Path, postgres: PostgresServer, ray_address: str
) -> None:
    bracket = ROOT / "tournaments" / f"{name}.yaml"
    sqlite = tmp_path / f"{name}.db"
    reference = run_bracket(bracket, sqlite)
    db = postgres.new_database()
    code, output = cli(*run_args(bracket, db, "ray", ray_address))
    assert code == 0, output
    assert standings_json(db) == reference
    assert stored_match_ids(db, name) == stored_ids(sqlite)


def test_a_killed_staged_run_resumes_on_postgresql_and_ray_without_duplicates(
    tmp_path: Path, postgres: PostgresServer, ray_address: str
) -> None:
    bracket = ROOT / "tournaments" / "stages.yaml"
    sqlite = tmp_path / "stages.db"
    reference = run_bracket(bracket, sqlite)
    db = postgres.new_database()
    args = run_args(bracket, db, "ray", ray_address)
    interrupted = kill_after(args, db, 3, "stages")
    assert 3 <= len(interrupted) < len(stored_ids(sqlite))
    code, output = cli(*args)
    assert code == 0, output
    resumed = stored_match_ids(db, "stages")
    assert resumed == stored_ids(sqlite) and set(interrupted) <= set(resumed)
    assert standings_json(db) == reference
