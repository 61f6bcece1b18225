"""Running the ``smtourney`` command in tests: in process, or as a real process that is always reaped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from server.cli import app

ROOT = Path(__file__).resolve().parents[1]
SMTOURNEY = [sys.executable, "-m", "server"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}


def invoke(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``smtourney ARGS`` in this process: exit status and output. No exception may escape."""
    # A wide terminal, as for the processes below: rich wraps error boxes at the width it is given.
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"smtourney {' '.join(args)} raised {result.exception!r}:\n{result.output}")
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@dataclass(frozen=True)
class Finished:
    """A ``smtourney`` process that has ended."""

    code: int
    stdout: str
    stderr: str


def run_process(*args: str, cwd: Path = ROOT, timeout: float = 60) -> Finished:
    """``smtourney ARGS`` as a process of its own; killed (and reaped) if it outlives ``timeout``."""
    process = subprocess.Popen(
        [*SMTOURNEY, *args],
        cwd=cwd,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="backslashreplace",
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert "Traceback" not in stdout + stderr, stdout + stderr
    return Finished(process.returncode, stdout, stderr)


def kill_when(process: subprocess.Popen[Any], ready: Callable[[], bool], timeout: float) -> None:
    """SIGKILL ``process`` as soon as ``ready()``; fail if it ends first or ``timeout`` passes. It is
    reaped (its output read) either way."""
    try:
        deadline = time.monotonic() + timeout
        while not ready():
            assert process.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline, "the run was not ready to be killed in time"
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()
