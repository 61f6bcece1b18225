"""Shared by the ladder's tests: the command line, in process."""

from __future__ import annotations

from typer.testing import CliRunner

from server.cli import app

RUNNER = CliRunner()


def cli(*args: str) -> tuple[int, str]:
    """Exit code and everything printed (standard error included) of ``smtourney ARGS``."""
    result = RUNNER.invoke(app, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        result.exception
    )
    return result.exit_code, result.output
