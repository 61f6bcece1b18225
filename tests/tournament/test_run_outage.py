"""A run on a real PostgreSQL server that is stopped for 10 s while matches are played: the run says
so once, waits, and ends with every match stored once, each replay verified."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from ..scale.helpers import cli, run_args, start_run, stored_match_ids, write_bracket
from ..servers.postgres import PostgresServer
from ..tiny_bracket import MATCHES

OUTAGE_S = 10


@pytest.mark.slow  # about 70 s: the ladder's outage test is the quick one of the default run
def test_a_run_waits_out_a_postgres_outage_and_stores_every_match_once(
    tmp_path: Path, own_postgres: PostgresServer
) -> None:
    url = own_postgres.new_database()
    bracket = write_bracket(tmp_path / "bracket")
    run = start_run(run_args(bracket, url, "local", None))
    try:
        deadline = time.monotonic() + 120
        while not stored_match_ids(url):
            assert run.poll() is None, run.communicate()[0]
            assert time.monotonic() < deadline, "no match stored in time"
            time.sleep(0.1)
        own_postgres.stop()
        time.sleep(OUTAGE_S)
        own_postgres.start()
        output, _ = run.communicate(timeout=180)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 0, output
    lines = output.splitlines()
    assert len([line for line in lines if "database unavailable" in line]) == 1, output
    assert len([line for line in lines if "the database is back after" in line]) == 1, output
    assert "Traceback" not in output and "\\n" not in output, output
    stored = stored_match_ids(url)
    assert len(stored) == len(set(stored)) == MATCHES
    code, verified = cli("verify", "--db", url)
    assert code == 0, verified


def test_a_storage_failure_ends_the_run_with_its_cause_and_how_to_resume(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    url = postgres.new_database()
    name = postgres.location(url).url.database
    bracket = write_bracket(tmp_path / "bracket")
    run = start_run(run_args(bracket, url, "local", None))
    try:
        deadline = time.monotonic() + 120
        while not stored_match_ids(url):
            assert run.poll() is None, run.communicate()[0]
            assert time.monotonic() < deadline, "no match stored in time"
            time.sleep(0.1)
        # Every write refused from the next connection on, and the run's connections ended to get there.
        postgres.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        postgres.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
        output, _ = run.communicate(timeout=180)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 1, output
    stored = stored_match_ids(url)
    last = output.strip().splitlines()[-1]
    assert "cannot execute INSERT in a read-only transaction" in last, output
    assert last.endswith(
        f"{len(stored)} of {MATCHES} matches are stored. Run the same command again to resume."
    )
    assert "DELETE" not in output and "Traceback" not in output, output

    postgres.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
    code, resumed = cli(*run_args(bracket, url, "local", None))
    assert code == 0, resumed
    assert (
        sorted(stored_match_ids(url)) == sorted(set(stored_match_ids(url)))
        and len(stored_match_ids(url)) == MATCHES
    )
