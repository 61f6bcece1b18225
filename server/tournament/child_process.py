"""Waiting for an executor's child process to end, with a deadline."""

from __future__ import annotations

import subprocess

__all__ = ["wait_or_kill"]


def wait_or_kill(process: subprocess.Popen[bytes], grace_s: float) -> int:
    """Its exit status once it ends: after ``grace_s`` it is killed (SIGKILL), so nothing waits for ever."""
    try:
        return process.wait(grace_s)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()
