"""One bracket, four ways: SQLite or PostgreSQL, local worker processes or Ray actors. Standings are
byte-identical, every stored match re-simulates, and a run killed mid-way resumes without
duplicates on either store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.store.location import parse_location

from ..conftest import processes_left
from ..servers.postgres import PostgresServer
from ..tiny_bracket import MATCHES
from ..web.conftest import fetch, serve
from .helpers import cli, kill_after, run_args, standings_json, stored_match_ids, write_bracket


@pytest.fixture(scope="module")
def sqlite_twin(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An uninterrupted run on SQLite with local worker processes: its database."""
    bracket = write_bracket(tmp_path_factory.mktemp("reference"))
    db = str(bracket.with_suffix(".db"))
    code, output = cli(*run_args(bracket, db, "local", None))
    assert code == 0, output
    assert len(stored_match_ids(db)) == MATCHES
    return db


@pytest.fixture(scope="module")
def reference(sqlite_twin: str) -> str:
    """Standings JSON of the SQLite run with local worker processes."""
    return standings_json(sqlite_twin)


def test_sqlite_with_a_local_ray_instance_gives_the_same_standings(reference: str, tmp_path: Path) -> None:
    """No address: the run starts a Ray instance of its own, and stops it."""
    bracket = write_bracket(tmp_path)
    db = str(tmp_path / "ray.db")
    code, output = cli(*run_args(bracket, db, "ray", None))
    assert code == 0, output
    assert standings_json(db) == reference


def test_postgresql_with_local_workers_gives_the_same_standings_matches_and_replays(
    reference: str, sqlite_twin: str, tmp_path: Path, postgres: PostgresServer
) -> None:
    bracket = write_bracket(tmp_path)
    db = postgres.new_database()
    code, output = cli(*run_args(bracket, db, "local", None))
    assert code == 0, output
    assert standings_json(db) == reference
    code, output = cli("verify", "--db", db)
    assert code == 0, output
    assert f"{MATCHES} matches checked, {MATCHES} ok, 0 failed" in output
    _the_readers_agree(db, sqlite_twin)


def _timeless(value: object) -> object:
    """``value`` without what depends on the clock (durations, latencies, times used)."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in CLOCK_KEYS}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


CLOCK_KEYS = {"duration_s", "latency_us", "time_used_ms", "created_at", "finished_at"}


def _the_readers_agree(db: str, twin: str) -> None:
    """matches, replay and the web viewer read PostgreSQL as they read the SQLite file."""
    listings = [json.loads(cli("matches", "--db", d, "--json")[1]) for d in (db, twin)]
    assert _timeless(listings[0]) == _timeless(listings[1]) and len(listings[0]) == MATCHES
    replays = [json.loads(cli("replay", "r1-t001-s1", "--db", d, "--json")[1]) for d in (db, twin)]
    assert _timeless(replays[0]) == _timeless(replays[1])
    with serve(parse_location(db)) as base:
        (tournament,) = fetch(f"{base}/api/tournaments").json()
        assert tournament["name"] == "tiny" and tournament["matches"] == MATCHES
        page = fetch(f"{base}/tournaments/{tournament['id']}/matches/r1-t001-s1")
        assert page.status == 200 and "greedy" in page.body


def test_postgresql_with_a_ray_cluster_gives_the_same_standings(
    reference: str, tmp_path: Path, postgres: PostgresServer, ray_address: str
) -> None:
    bracket = write_bracket(tmp_path)
    db = postgres.new_database()
    code, output = cli(*run_args(bracket, db, "ray", ray_address))
    assert code == 0, output
    assert standings_json(db) == reference
    assert len(set(stored_match_ids(db))) == MATCHES
    code, output = cli("verify", "--db", db)
    assert code == 0 and f"{MATCHES} ok" in output, output


def test_the_bracket_can_choose_ray(reference: str, tmp_path: Path, ray_address: str) -> None:
    bracket = write_bracket(tmp_path)
    bracket.write_text(bracket.read_text().replace("workers: 2", "workers: 2\nexecutor: ray"))
    db = str(tmp_path / "chosen.db")
    code, output = cli("run", str(bracket), "--db", db, "--ray-address", ray_address)
    assert code == 0, output
    assert standings_json(db) == reference


@pytest.mark.parametrize(
    ("store", "executor"), [("sqlite", "ray"), ("postgresql", "local"), ("postgresql", "ray")]
)
def test_a_killed_run_resumes_without_duplicates(
    reference: str, tmp_path: Path, tag: str, store: str, executor: str, request: pytest.FixtureRequest
) -> None:
    """SIGKILL of the driver mid-run, then the same command again (SQLite with local workers is
    tests/tournament/test_run.py's)."""
    bracket = write_bracket(tmp_path, tag)
    if store == "postgresql":
        db = request.getfixturevalue("postgres").new_database()
    else:
        db = str(tmp_path / "resumed.db")
    address = request.getfixturevalue("ray_address") if executor == "ray" else None
    interrupted = kill_after(run_args(bracket, db, executor, address), db, 2)
    assert processes_left(tag, within_s=30) == [], "a bot outlived the killed run"
    assert 2 <= len(interrupted) < MATCHES

    code, output = cli(*run_args(bracket, db, executor, address))
    assert code == 0, output
    resumed = stored_match_ids(db)
    assert len(resumed) == len(set(resumed)) == MATCHES
    assert set(interrupted) <= set(resumed)
    assert standings_json(db) == reference
