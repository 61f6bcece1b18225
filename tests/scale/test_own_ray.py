"""A Ray instance of the run's own (no address): its session and logs in a folder of the run's, log
files rotated small, the folder gone when the run ends; and its node's raylet killed mid-run ends
the run with the cause and how to resume, in smtourney's words, not Ray's."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import time
from pathlib import Path

import pytest

from server.tournament import ray_actors
from server.tournament.executor import ExecutorLostError
from server.tournament.ray_executor import RayExecutor, last_ray_error

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


def raylets_under(ancestor: int, temp_dir: str = "") -> list[int]:
    """The live raylets ``ancestor`` started through its children (a run's own Ray instance's node),
    those of the instance in ``temp_dir`` when given (an earlier test's instance may still be on its
    way out)."""
    parents: dict[int, int] = {}
    raylets = []
    for entry in os.listdir("/proc"):
        try:
            if not entry.isdigit():
                continue
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(stat[1])
            line = command_line(int(entry))
            if "raylet/raylet " in line and f"--temp_dir={temp_dir}" in line and stat[0] != "Z":
                raylets.append(int(entry))
        except OSError:
            continue

    def descends(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == ancestor:
                return True
        return False

    return [raylet for raylet in raylets if descends(raylet)]


def test_the_own_instance_keeps_its_rotated_logs_in_a_folder_deleted_at_the_end(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("RAY_ROTATION_MAX_BYTES", "RAY_ROTATION_BACKUP_COUNT"):
        monkeypatch.delenv(name, raising=False)  # put back as they were (unset) after the test
    executor = RayExecutor(1, None, tmp_path / "ray-driver.log")
    closed = False
    try:
        own = executor.own_folder
        assert own is not None
        (raylet,) = raylets_under(os.getpid(), str(own))
        line = command_line(raylet)
        assert own.parent == Path("/tmp") and own.name.startswith("smtourney-ray-"), own
        assert any((own / "session_latest" / "logs").iterdir())
        assert f"--logging-rotate-bytes={ray_actors.LOG_ROTATE_BYTES}" in line, line
        assert f"--logging-rotate-backup-count={ray_actors.LOG_BACKUPS}" in line, line
        executor.close(graceful=True)
        closed = True
        assert not own.exists()
        assert not raylets_under(os.getpid(), str(own))
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
        (raylet,) = raylets_under(run.pid)
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
    assert processes_using(folder.group(1)) == []
    assert 0 < len(stored) == len(set(stored)) < ROUNDS * MATCHES

    code, output = cli(*args)
    assert code == 0, output
    stored = stored_match_ids(db)
    assert len(stored) == len(set(stored)) == ROUNDS * MATCHES
    assert standings_json(db) == standings_json(reference)


def processes_using(folder: str) -> list[str]:
    """Processes with a file open in ``folder`` (what a lost raylet leaves behind)."""
    found = []
    for entry in os.listdir("/proc"):
        with contextlib.suppress(OSError):
            if entry.isdigit() and any(
                os.readlink(link).startswith(folder + "/") for link in Path(f"/proc/{entry}/fd").iterdir()
            ):
                found.append(f"{entry}: {command_line(int(entry))}")
    return found


def driver_of(parent: int) -> int:
    """The Ray driver process a run (or this test) started."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == parent and "server.tournament.ray_driver" in command_line(int(entry)):
                    return int(entry)
    raise AssertionError(f"process {parent} has no Ray driver")


def test_a_dead_driver_is_a_lost_executor_that_leaves_nothing_behind(tmp_path: Path) -> None:
    log = tmp_path / "ray-driver.log"
    executor = RayExecutor(1, None, log)
    try:
        own = executor.own_folder
        assert own is not None and raylets_under(os.getpid(), str(own))
        os.kill(driver_of(os.getpid()), signal.SIGKILL)
        assert executor.ready(30)
        with pytest.raises(ExecutorLostError) as lost:
            executor.next_result()
        assert str(lost.value) == f"the Ray driver process died (killed by SIGKILL; its output: {log})"
    finally:
        executor.close(graceful=False)
    assert not own.exists()
    assert processes_using(str(own)) == [] and raylets_under(1, str(own)) == []


def test_the_cause_of_a_driver_death_is_ray_s_last_fatal_line_or_the_traceback(tmp_path: Path) -> None:
    log = tmp_path / "ray-driver.log"
    log.write_text(
        "[2026-11-28 10:09:57,611 E 26814 27056] core_worker_process.cc:1029: Failed to get the system"
        " config from raylet because it is dead. Worker will terminate.\n"
        "Traceback (most recent call last):\n"
        '  File "node.py", line 440, in __init__\n'
        "    raise Exception(\n"
        "Exception: The current node timed out during startup.\n"
    )
    assert last_ray_error(log) == "Exception: The current node timed out during startup."
    with log.open("a") as file:
        file.write("[2026-11-28 10:09:58,001 C 26814 27056] core_worker.cc:12:  Check failed: registered\n")
    assert last_ray_error(log) == "Check failed: registered"
    assert last_ray_error(tmp_path / "missing.log") == ""


@pytest.mark.slow  # about two minutes: Ray's start waits out its dead raylet, then the resume
def test_a_raylet_that_dies_while_the_run_connects_ends_it_with_one_line(tmp_path: Path) -> None:
    """A raylet that dies while Ray connects ends the process that connects (Ray's core worker with
    a C++ line, or its start-up with an exception, depending on the moment): that process is the
    run's Ray driver, and the run says what happened in its own words."""
    bracket = write_bracket(tmp_path / "bracket")
    db = str(tmp_path / "connect.db")
    args = run_args(bracket, db, "ray", None)
    run = start_run(args)
    folders = set()
    try:
        deadline = time.monotonic() + 240
        while run.poll() is None:  # every raylet of the run killed as soon as it is seen, until it ends
            assert time.monotonic() < deadline, "the run did not end in time"
            for raylet in raylets_under(run.pid):
                with contextlib.suppress(OSError):
                    folders.update(re.findall(r"--temp_dir=(\S+)", command_line(raylet)))
                    os.kill(raylet, signal.SIGKILL)
            time.sleep(0.01)
        output, _ = run.communicate()
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 1, output
    last = output.strip().splitlines()[-1]
    assert last.startswith(f"error: {db}: the Ray driver process died (exit status 1: "), output
    assert last.endswith("0 of 6 matches are stored. Run the same command again to resume."), output
    assert not RAY_LOG_LINE.search(output) and "(raylet)" not in output, output
    (folder,) = folders
    assert not Path(folder).exists() and processes_using(folder) == []
    assert stored_match_ids(db) == []

    code, output = cli(*args)
    assert code == 0, output
    assert len(set(stored_match_ids(db))) == len(stored_match_ids(db)) == MATCHES
