"""The demo tournament gives byte-identical standings however it is played: bots kept between
matches or a new process for every match, one worker or two, and killed midway then resumed.

Each run plays the whole demo (twelve four-player matches of the reference bots), so these are
marked slow.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from ..commands import ENV, ROOT, SMTOURNEY, invoke
from ..conftest import processes_left
from ..standings import decided

DEMO = ROOT / "tournaments" / "demo.yaml"
pytestmark = pytest.mark.slow


def standings(db: Path) -> str:
    code, output = invoke("standings", "--db", str(db), "--json")
    assert code == 0, output
    return decided(output)


def run_demo(db: Path, *args: str, bracket: Path = DEMO) -> str:
    code, output = invoke("run", str(bracket), "--db", str(db), *args)
    assert code == 0, output
    return standings(db)


def stored(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        try:
            return int(connection.execute("SELECT count(*) FROM match").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


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
    run = subprocess.Popen(
        [*SMTOURNEY, "run", str(DEMO), "--db", str(db)],
        env={**ENV, "SMTOURNEY_TEST_TAG": tag},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not (db.exists() and stored(db) >= 3):
            assert run.poll() is None, "the run finished before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=10)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert processes_left(tag, within_s=10) == [], "a worker or a kept bot outlived the killed run"
    assert 3 <= stored(db) < 12
    assert run_demo(db) == reference
