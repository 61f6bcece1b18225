"""The pre-flight check and fair standings, with real bot processes: a bot that crashes at import
stops the run before anything is written, or, allowed, ranks last with no win."""

from __future__ import annotations

import json
from pathlib import Path

from ..commands import invoke

CRASH = "python -m tests.bots.crash_at_import_bot"
BRACKET = """\
name: crashing
game: saint_malo
players: 2
rounds: 1
seed: 5
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 2
entrants:
  - {name: crasher, command: CRASH}
  - {name: greedy, command: python -m bots.greedy}
  - {name: random-a, command: python -m bots.random}
  - {name: random-b, command: python -m bots.random}
""".replace("CRASH", CRASH)


def test_a_bot_that_crashes_at_import_stops_the_run_and_nothing_is_written(tmp_path: Path) -> None:
    bracket = tmp_path / "crashing.yaml"
    bracket.write_text(BRACKET)
    code, output = invoke("run", str(bracket))
    assert code == 2, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert "'crasher'" in lines[0] and "this bot fails while it is imported" in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["crashing.yaml"]  # no database, no logs


def test_allowed_failing_entrant_is_forfeited_and_ranks_last_with_no_win(tmp_path: Path) -> None:
    bracket = tmp_path / "crashing.yaml"
    bracket.write_text(BRACKET)
    code, output = invoke("run", str(bracket), "--allow-failing-entrants")
    assert code == 0, output
    assert "crasher" in output and "forfeited 6 matches in a row" in output
    code, output = invoke("standings", "--db", str(tmp_path / "crashing.db"), "--json")
    assert code == 0, output
    rows = json.loads(output)
    last = rows[-1]
    assert last["name"] == "crasher"
    assert (last["wins"], last["matches"], last["forfeits"]) == (0, 6, 6)
    assert all(row["forfeits"] == 0 for row in rows[:-1])


def test_play_refuses_bots_that_cannot_start(tmp_path: Path) -> None:
    logs = str(tmp_path / "logs")
    code, output = invoke("play", "--game", "saint_malo", "--bot", CRASH, "--bot", CRASH, "--log-dir", logs)
    assert code == 2, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 2 and all("failed the pre-flight check" in line for line in lines), output
