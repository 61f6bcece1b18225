"""Running one small bracket on any store and executor, and reading back what was stored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from server.cli import app
from server.store.database import StoreError
from server.store.location import parse_location
from server.store.repository import Store

from ..commands import kill_when
from ..standings import decided
from ..tiny_bracket import write_bracket as write_tiny_bracket

ROOT = Path(__file__).resolve().parents[2]


def write_bracket(folder: Path, tag: str = "untagged") -> Path:
    """The tiny bracket, played by two workers (or actors)."""
    return write_tiny_bracket(folder, tag, workers=2)


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def run_args(bracket: Path, db: str, executor: str, ray_address: str | None) -> list[str]:
    """``smtourney run`` arguments for one store and one executor."""
    args = ["run", str(bracket), "--db", db, "--executor", executor]
    return args + (["--ray-address", ray_address] if ray_address is not None else [])


def standings_json(db: str) -> str:
    """The standings' JSON without measured times (tests/standings.py)."""
    code, output = cli("standings", "--db", db, "--json")
    assert code == 0, output
    return decided(output)


def stored_match_ids(db: str, name: str = "tiny") -> list[str]:
    """Stored matches of tournament ``name`` in schedule order, duplicates included ([] before the
    database exists)."""
    try:
        store = Store.open(parse_location(db))
    except StoreError:
        return []
    try:
        tournament = store.tournament(name)
        if tournament is None or tournament.id is None:
            return []
        return [match.match_id for match, _ in store.matches(tournament.id)]
    finally:
        store.close()


def start_run(args: list[str]) -> subprocess.Popen[str]:
    """``smtourney run`` as a process of its own, output captured."""
    return subprocess.Popen(
        [sys.executable, "-m", "server", *args],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def kill_after(args: list[str], db: str, stored: int, name: str = "tiny") -> list[str]:
    """``smtourney ARGS`` SIGKILLed once ``stored`` matches of ``name`` are in ``db``; the stored ids."""
    kill_when(start_run(args), lambda: len(stored_match_ids(db, name)) >= stored, timeout=180)
    return stored_match_ids(db, name)
