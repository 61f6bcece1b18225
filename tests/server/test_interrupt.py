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
        while len([p for p in processes_with(tag) if p != referee.pid]) < 2:
            assert referee.poll() is None, "the match ended before it could be interrupted"
            assert time.monotonic() < deadline, "the bots never started"
            time.sleep(0.05)
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
    while processes_with(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(tag) == []
