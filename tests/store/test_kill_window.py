"""``smtourney run`` SIGKILLed at any moment of creating its database leaves one the next run completes.

A dozen runs are killed at delays from 0 to 100 ms after their database file appears, which spans
the creation (an empty file, a hot journal, WAL mode without tables, the committed schema, the
tournament's rows); each is then run again and must play the whole tournament.
"""

from __future__ import annotations

import json
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from server.store.probe import probe

from ..commands import ENV, SMTOURNEY, invoke

DELAYS_MS = [0, 0.5, 1, 2, 3, 5, 8, 12, 20, 35, 60, 100]
KILLED_AT_ONCE = 4
"""Runs started together: enough to overlap their start-up, few enough to keep the timing."""
# Seats at a closed port are forfeited at once: the tournament needs no bot process.
BRACKET = """\
name: t
players: 2
entrants:
  - {name: a, address: "127.0.0.1:1"}
  - {name: b, address: "127.0.0.1:1"}
"""


def kill_while_creating(folder: Path, delay_ms: float) -> bool:
    """Start a run, SIGKILL it ``delay_ms`` after its database file appears; True if the kill
    left the database unfinished (no schema row yet)."""
    bracket = folder / "t.yaml"
    db = folder / "t.db"
    process = subprocess.Popen(
        [*SMTOURNEY, "run", str(bracket)],
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not db.exists():
            assert process.poll() is None, "the run ended before creating its database"
            assert time.monotonic() < deadline, "the run never created its database"
            time.sleep(0.0002)
        time.sleep(delay_ms / 1000)
        process.kill()
    finally:
        process.kill()
        process.wait()
    return probe(db).schema is None


def test_a_run_killed_while_creating_its_database_is_completed_by_the_next(tmp_path: Path) -> None:
    folders = []
    for delay in DELAYS_MS:
        folder = tmp_path / f"kill-{delay}ms"
        folder.mkdir()
        (folder / "t.yaml").write_text(BRACKET)
        folders.append(folder)
    unfinished = []
    with ThreadPoolExecutor(KILLED_AT_ONCE) as pool:  # each killed database is resumed as soon as it is left
        kills = {
            pool.submit(kill_while_creating, folder, delay): folder
            for folder, delay in zip(folders, DELAYS_MS, strict=True)
        }
        for kill in as_completed(kills):
            unfinished.append(kill.result())
            folder = kills[kill]
            code, output = invoke("run", str(folder / "t.yaml"))
            assert code == 0, (folder.name, output)
            code, output = invoke("matches", "--db", str(folder / "t.db"), "--json")
            assert code == 0 and [row["match_id"] for row in json.loads(output)] == [
                "r1-t000-s0",
                "r1-t000-s1",
            ]
    assert any(unfinished), "no kill landed inside the creation of a database"
