"""Launching bots: limits and the parent-death signal are in place before the bot runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from server import guard
from server.launcher import BotProcess, Limits

REPORT = (
    "import resource, sys;"
    "print(resource.getrlimit(resource.RLIMIT_AS), resource.getrlimit(resource.RLIMIT_CPU));"
    "print(open('/proc/self/status').read().split('\\n')[0])"
)


def run_to_end(process: BotProcess) -> str:
    with process:
        assert process.wait_exit(20) == 0
    return process.log_path.read_text()


def test_limits_are_set_before_the_bot_starts(tmp_path: Path) -> None:
    log = run_to_end(
        BotProcess(
            ["python", "-c", REPORT], tmp_path / "bot.log", limits=Limits(memory_mb=300, cpu_seconds=7)
        )
    )
    memory = 300 * 1024 * 1024
    assert f"({memory}, {memory}) (7, 8)" in log
    # The guard replaced itself with the bot: one process, the bot's own name.
    assert "Name:\tpython" in log


def test_no_limits_means_unlimited(tmp_path: Path) -> None:
    log = run_to_end(
        BotProcess(
            ["python", "-c", REPORT], tmp_path / "bot.log", limits=Limits(memory_mb=None, cpu_seconds=None)
        )
    )
    assert "(-1, -1) (-1, -1)" in log


def test_a_missing_program_fails_at_launch(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such program: no-such-bot-program"):
        BotProcess(["no-such-bot-program"], tmp_path / "bot.log").start()


def test_the_guard_does_not_start_a_bot_for_a_parent_that_is_gone() -> None:
    """The parent died before the signal was armed: the command never runs."""
    not_my_parent = "1"
    result = subprocess.run(
        [sys.executable, "-I", "-S", guard.__file__, not_my_parent, "-", "-", "--", "echo", "ran"],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert (result.returncode, result.stdout) == (1, "")


def test_the_guard_explains_bad_usage_and_missing_commands() -> None:
    result = subprocess.run(
        [sys.executable, "-I", "-S", guard.__file__, "x"],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert result.returncode == 2 and "usage:" in result.stderr
    result = subprocess.run(
        [sys.executable, "-I", "-S", guard.__file__, str(os.getpid()), "-", "-", "--", "no-such-bot-program"],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert result.returncode == 127 and "cannot run no-such-bot-program" in result.stderr
