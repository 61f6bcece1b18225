"""A real stored tournament to look back at: a random bot against one that breaks rules."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from server.cli import app

BRACKET = """\
name: replays
game: saint_malo
players: 2
rounds: 1
seed: 5
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 1
entrants:
  - {name: rando, command: python -m bots.random}
  - {name: cheater, command: python -m tests.bots.faulty_bot --fault illegal --at 3}
"""


@pytest.fixture(scope="session")
def stored_tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of a played tournament: two matches, the cheater struck and forfeited."""
    folder = tmp_path_factory.mktemp("replays")
    bracket = folder / "replays.yaml"
    bracket.write_text(BRACKET)
    db = folder / "replays.db"
    result = CliRunner().invoke(app, ["run", str(bracket), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


@pytest.fixture
def db_copy(stored_tournament: Path, tmp_path: Path) -> Path:
    """A copy of the tournament database a test may change."""
    copy = tmp_path / "copy.db"
    shutil.copy(stored_tournament, copy)
    return copy
