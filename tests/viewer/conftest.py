"""A copy of the shared tournament database, for tests that tamper with it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture
def db_copy(tournament_db: Path, tmp_path: Path) -> Path:
    """A copy of the tournament database a test may change."""
    copy = tmp_path / "copy.db"
    shutil.copy(tournament_db, copy)
    return copy
