"""Runs on a PostgreSQL URL keep their bot logs in ``<database>-logs`` under the working folder: each
test here works in its own temporary folder so none is left in the checkout."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _work_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
