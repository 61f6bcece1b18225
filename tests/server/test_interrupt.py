"""However the referee is stopped, no bot process outlives it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..conftest import processes_with
from .conftest import ROOT


def descendants(root: int) -> set[int]:
    """Live processes below ``root``: its bots, their guards and sandboxes (whose environment is
    the bot's own, so the organiser's test tag does not reach them)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    left = set()
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                left.add(pid)
        except OSError:
            pass
    return left


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_interrupted_referee_leaves_no_bot_behind(signum: int, tmp_path: Path, tag: str) -> None:
    bots = ["--bot", "python -m bots.greedy", "--bot", "python -m bots.random"]
    referee = subprocess.Popen(
        [sys.executable, "-m", "server", "play", "--game", "saint_malo", *bots, "--log-dir", str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SMTOURNEY_TEST_TAG": tag},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while len(launched := [p for p in descendants(referee.pid) if b"bots." in _cmdline(p)]) < 2:
            assert referee.poll() is None, "the match ended before it could be interrupted"
            assert time.monotonic() < deadline, "the bots never started"
            time.sleep(0.05)
        below = descendants(referee.pid)
        assert len(launched) >= 2
        referee.send_signal(signum)
        _, stderr = referee.communicate(timeout=30)
    finally:
        if referee.poll() is None:
            referee.kill()
            referee.wait()
    if signum != signal.SIGKILL:
        assert referee.returncode == 130
        assert b"every bot process stopped" in stderr
    deadline = time.monotonic() + 5  # the kernel delivers the parent-death signal asynchronously
    while (alive(below) or processes_with(tag)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alive(below) == set()
    assert processes_with(tag) == []


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
