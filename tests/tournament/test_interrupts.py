"""A run that is stopped from outside ends cleanly: one line, no traceback, no process or semaphore
left behind, and a database the next run completes.

- a worker killed mid-match ends the run with exit status 1 and one line naming the match;
- SIGTERM is handled like Ctrl-C: workers and bots stopped, exit status 130, one line;
- SIGKILL of the whole process group leaves no named semaphore in /dev/shm.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..commands import ENV, SMTOURNEY, invoke
from ..conftest import processes_left, processes_with

MATCHES = 2
BRACKET = """\
name: stop-me
players: 2
seed: 4
time_control: {{decision_ms: 5000, bank_ms: 20000}}
entrants:
  - {{name: greedy, command: python -m bots.greedy, env: {{SMTOURNEY_TEST_TAG: "{tag}"}}}}
  - {{name: random, command: python -m bots.random, env: {{SMTOURNEY_TEST_TAG: "{tag}"}}}}
"""


def children(pid: int) -> list[int]:
    """Live processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@contextmanager
def running(tmp_path: Path, tag: str) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """``smtourney run`` in a session of its own, once its bots play; the whole group is killed after.

    The bots of the pre-flight check have come and gone once the database exists: the bots seen
    then play matches.
    """
    bracket = tmp_path / "stop-me.yaml"
    bracket.write_text(BRACKET.format(tag=tag))
    run = subprocess.Popen(
        [*SMTOURNEY, "run", str(bracket)],
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        db = tmp_path / "stop-me.db"
        while not db.exists() or len(processes_with(tag)) < 2:
            assert run.poll() is None, run.communicate()
            assert time.monotonic() < deadline, "the bots never started"
            time.sleep(0.05)
        yield run, db
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        processes_left(tag, within_s=10)


def resumes(bracket: Path) -> None:
    code, output = invoke("run", str(bracket))
    assert code == 0, output
    code, output = invoke("matches", "--db", str(bracket.with_suffix(".db")), "--json")
    assert code == 0 and len(json.loads(output)) == MATCHES


def test_a_killed_worker_ends_the_run_with_one_line(tmp_path: Path, tag: str) -> None:
    with running(tmp_path, tag) as (run, db):
        workers = [pid for pid in children(run.pid) if "server.tournament.worker" in command_line(pid)]
        assert len(workers) == 1
        os.kill(workers[0], signal.SIGKILL)
        _, stderr = run.communicate(timeout=60)
    assert run.returncode == 1
    assert re.fullmatch(
        rf"error: {re.escape(str(db))}: worker process {workers[0]} died \(killed by SIGKILL\) while playing "
        rf"match r1-t000-s\d; \d of {MATCHES} matches are stored\. Run the same command again to resume\.\n",
        stderr,
    ), stderr
    assert processes_with(tag) == [], "a bot outlived its killed worker"
    resumes(tmp_path / "stop-me.yaml")


def test_sigterm_stops_workers_and_bots_like_ctrl_c(tmp_path: Path, tag: str) -> None:
    with running(tmp_path, tag) as (run, db):
        run.send_signal(signal.SIGTERM)
        _, stderr = run.communicate(timeout=60)
        assert run.returncode == 130
        assert re.fullmatch(
            rf"interrupted: \d of {MATCHES} matches are stored in {re.escape(str(db))}; "
            r"every bot was stopped\. Run the same command again to resume\.\n",
            stderr,
        ), stderr
        assert children(run.pid) == [], "a worker outlived the run"
    assert processes_with(tag) == []
    resumes(tmp_path / "stop-me.yaml")


def shared_memory_mapped(pids: list[int]) -> set[str]:
    """Files of /dev/shm (named semaphores, shared memory) mapped by any of ``pids``."""
    found = set()
    for pid in pids:
        try:
            maps = Path(f"/proc/{pid}/maps").read_text()
        except OSError:
            continue
        found |= set(re.findall(r"(/dev/shm/\S+)", maps))
    return found


def test_sigkill_of_the_process_group_leaves_no_semaphore(tmp_path: Path, tag: str) -> None:
    with running(tmp_path, tag) as (run, _):
        group = [pid for pid in os.listdir("/proc") if pid.isdigit() and _group_of(int(pid)) == run.pid]
        mapped = shared_memory_mapped([int(pid) for pid in group])
        os.killpg(run.pid, signal.SIGKILL)
        run.wait(timeout=10)
    assert len(group) >= 2  # the run and its worker
    assert mapped == set(), f"the run used shared memory a SIGKILL would leave behind: {mapped}"
    assert not [path for path in mapped if Path(path).exists()]
    resumes(tmp_path / "stop-me.yaml")


def _group_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):
        return None
