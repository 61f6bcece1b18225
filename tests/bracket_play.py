"""Plays a sandboxed two-player bracket of one command against the random bot, as an organiser would
(``smtourney run``, then ``smtourney standings --json``), and returns the command's standings row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def standing_against_random(bracket: Path, game: str, command: str) -> dict[str, Any]:
    """The row of entrant ``bot`` (``command``) after one round against ``bots.random``, seats swapped."""
    bracket.write_text(
        f"name: duel\ngame: {game}\nplayers: 2\nrounds: 1\nseed: 5\n"
        "time_control: {decision_ms: 5000, bank_ms: 20000}\nentrants:\n"
        f"  - {{name: bot, command: '{command}'}}\n"
        "  - {name: random, command: python -m bots.random}\n"
    )
    smtourney = [sys.executable, "-m", "server"]
    run = subprocess.run(
        [*smtourney, "run", str(bracket)], cwd=ROOT, check=False, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout + run.stderr
    listing = subprocess.run(
        [*smtourney, "standings", "--db", str(bracket.with_suffix(".db")), "--json"],
        cwd=ROOT, check=True, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    row: dict[str, Any] = next(row for row in json.loads(listing.stdout) if row["name"] == "bot")
    return row
