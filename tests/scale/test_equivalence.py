"""One bracket, four ways: SQLite or PostgreSQL, local worker processes or Ray actors. Standings are
byte-identical, every stored match re-simulates, and a run killed mid-way resumes without
duplicates on either store."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from ..conftest import processes_with
from ..servers.postgres import PostgresServer
from .helpers import MATCHES, cli, run_args, standings_json, start_run, stored_match_ids, write_bracket


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Standings JSON of an uninterrupted run on SQLite with local worker processes."""
    bracket = write_bracket(tmp_path_factory.mktemp("reference"))
    db = str(bracket.with_suffix(".db"))
    code, output = cli(*run_args(bracket, db, "local", None))
    assert code == 0, output
    assert len(stored_match_ids(db)) == MATCHES
    return standings_json(db)


def test_sqlite_with_a_local_ray_instance_gives_the_same_standings(reference: str, tmp_path: Path) -> None:
    """No address: the run starts a Ray instance of its own, and stops it."""
    bracket = write_bracket(tmp_path)
    db = str(tmp_path / "ray.db")
    code, output = cli(*run_args(bracket, db, "ray", None))
    assert code == 0, output
    assert standings_json(db) == reference


def test_postgresql_with_local_workers_gives_the_same_standings(
    reference: str, tmp_path: Path, postgres: PostgresServer
) -> None:
    bracket = write_bracket(tmp_path)
    db = postgres.new_database()
    code, output = cli(*run_args(bracket, db, "local", None))
    assert code == 0, output
    assert standings_json(db) == reference
    code, output = cli("verify", "--db", db)
    assert code == 0, output
    assert f"{MATCHES} matches checked, {MATCHES} ok, 0 failed" in output


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
    run = start_run(run_args(bracket, db, executor, address))
    try:
        deadline = time.monotonic() + 120
        while len(stored_match_ids(db)) < 2:
            assert run.poll() is None, f"the run ended before it could be killed: {run.communicate()[0]}"
            assert time.monotonic() < deadline, "no match was stored in time"
            time.sleep(0.1)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=10)
    finally:
        if run.poll() is None:
            run.kill()
        run.communicate()
    deadline = time.monotonic() + 30  # bots die with their worker, Ray's actors with their driver
    while processes_with(tag) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(tag) == [], "a bot outlived the killed run"
    interrupted = stored_match_ids(db)
    assert 2 <= len(interrupted) < MATCHES

    code, output = cli(*run_args(bracket, db, executor, address))
    assert code == 0, output
    resumed = stored_match_ids(db)
    assert len(resumed) == len(set(resumed)) == MATCHES
    assert set(interrupted) <= set(resumed)
    assert standings_json(db) == reference
