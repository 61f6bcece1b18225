"""Running a bracket through the command line in tests: the standings it gives, the matches it
stored, and a run killed with SIGKILL once some matches are stored."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

from ..commands import ENV, SMTOURNEY, invoke, kill_when
from ..conftest import processes_left
from ..standings import decided


def standings(db: Path, *args: str) -> str:
    """The standings JSON without its measured times (tests/standings.py)."""
    code, output = invoke("standings", "--db", str(db), "--json", *args)
    assert code == 0, output
    return decided(output)


def run_bracket(bracket: Path, db: Path, *args: str) -> str:
    """Run (or resume) ``bracket`` into ``db``; its standings JSON."""
    code, output = invoke("run", str(bracket), "--db", str(db), *args)
    assert code == 0, output
    return standings(db)


def stored_ids(db: Path) -> list[str]:
    """Stored match ids, duplicates included ([] before the database exists)."""
    with sqlite3.connect(db) as connection:
        try:
            return [row[0] for row in connection.execute('SELECT match_id FROM match ORDER BY "index"')]
        except sqlite3.OperationalError:
            return []


def stored(db: Path) -> int:
    return len(stored_ids(db))


def kill_midway(bracket: Path, db: Path, tag: str, after: int, *args: str) -> None:
    """Start ``smtourney run`` (with ``args``), SIGKILL it once ``after`` matches are stored, and
    check that none of its processes outlive it."""
    run = subprocess.Popen(
        [*SMTOURNEY, "run", str(bracket), "--db", str(db), *args],
        env={**ENV, "SMTOURNEY_TEST_TAG": tag},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    kill_when(run, lambda: db.exists() and stored(db) >= after, timeout=120)
    assert processes_left(tag, within_s=10) == [], "a worker or a kept bot outlived the killed run"
