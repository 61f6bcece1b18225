"""A Ray instance of the run's own (no address): its session and logs in a folder of the run's, log
files rotated small, the folder gone when the run ends; and its node's raylet killed mid-run ends
the run with the cause and how to resume, in smtourney's words, not Ray's."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from server.tournament import ray_executor
from server.tournament.ray_executor import RayExecutor

from ..servers.ray_cluster import missing_reason
from ..tiny_bracket import MATCHES
from .helpers import cli, run_args, standings_json, start_run, stored_match_ids, write_bracket

ROUNDS = 6
RAY_LOG_LINE = re.compile(r"^\[\d{4}-\d\d-\d\d [\d:,]+ [A-Z] \d+ \d+\]", re.MULTILINE)
"""How Ray's C++ log lines start: ``[2026-11-28 07:06:36,149 E 12606 12606] core_worker...``."""


@pytest.fixture(autouse=True)
def _ray_installed() -> None:
    reason = missing_reason()
    if reason is not None:
        pytest.skip(reason)


def command_line(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


def raylets_of(parent: int, temp_dir: str = "") -> list[int]:
    """The raylets ``parent`` started (a run's own Ray instance's node), those of the instance in
    ``temp_dir`` when given (an earlier test's instance may still be on its way out)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            line = command_line(int(entry)) if entry.isdigit() else ""
            if "raylet/raylet " in line and f"--temp_dir={temp_dir}" in line:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == parent and stat[0] != "Z":
                    found.append(int(entry))
        except OSError:
            continue
    return found


def test_the_own_instance_keeps_its_rotated_logs_in_a_folder_deleted_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("RAY_ROTATION_MAX_BYTES", "RAY_ROTATION_BACKUP_COUNT"):
        monkeypatch.delenv(name, raising=False)  # put back as they were (unset) after the test
    executor = RayExecutor(1, None)
    closed = False
    try:
        own = executor.own_folder
        assert own is not None
        (raylet,) = raylets_of(os.getpid(), str(own))
        line = command_line(raylet)
        assert own.parent == Path("/tmp") and own.name.startswith("smtourney-ray-"), own
        assert any((own / "session_latest" / "logs").iterdir())
        assert f"--logging-rotate-bytes={ray_executor.LOG_ROTATE_BYTES}" in line, line
        assert f"--logging-rotate-backup-count={ray_executor.LOG_BACKUPS}" in line, line
        executor.close(graceful=True)
        closed = True
        assert not own.exists()
        assert not raylets_of(os.getpid(), str(own))
    finally:
        if not closed:
            executor.close(graceful=False)


@pytest.mark.slow  # about a minute, two on a busy machine: a reference run, the killed run, its resume
def test_a_run_whose_own_raylet_dies_stops_with_one_line_then_resumes(tmp_path: Path) -> None:
    bracket = write_bracket(tmp_path / "bracket")
    bracket.write_text(bracket.read_text().replace("rounds: 1", f"rounds: {ROUNDS}"))
    reference = str(tmp_path / "reference.db")
    code, output = cli(*run_args(bracket, reference, "local", None))
    assert code == 0, output

    db = str(tmp_path / "own.db")
    args = run_args(bracket, db, "ray", None)
    run = start_run(args)
    try:
        deadline = time.monotonic() + 120
        while not stored_match_ids(db):  # both actors placed and playing
            assert run.poll() is None, run.communicate()[0]
            assert time.monotonic() < deadline, "no match stored in time"
            time.sleep(0.05)
        (raylet,) = raylets_of(run.pid)
        folder = re.search(r"--temp_dir=(\S+)", command_line(raylet))
        assert folder is not None
        os.kill(raylet, 9)
        output, _ = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    stored = stored_match_ids(db)
    assert run.returncode == 1, output
    last = output.strip().splitlines()[-1]
    assert last.startswith(f"error: {db}: ") and "no Ray worker is left" in last, output
    assert last.endswith(
        f"{len(stored)} of {ROUNDS * MATCHES} matches are stored. Run the same command again to resume."
    ), output
    assert not RAY_LOG_LINE.search(output) and "(raylet)" not in output, output
    assert not Path(folder.group(1)).exists()
    assert 0 < len(stored) == len(set(stored)) < ROUNDS * MATCHES

    code, output = cli(*args)
    assert code == 0, output
    stored = stored_match_ids(db)
    assert len(stored) == len(set(stored)) == ROUNDS * MATCHES
    assert standings_json(db) == standings_json(reference)
