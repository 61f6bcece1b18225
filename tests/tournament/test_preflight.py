"""The pre-flight check and fair standings, with real bot processes: a bot that crashes at import
stops the run before anything is written, or, allowed, ranks last with no win."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def allowed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The bracket run with its crashing bot allowed: the database and what the run printed."""
    bracket = tmp_path_factory.mktemp("allowed") / "crashing.yaml"
    bracket.write_text(BRACKET)
    code, output = invoke("run", str(bracket), "--allow-failing-entrants")
    assert code == 0, output
    return bracket.with_suffix(".db"), output


def test_allowed_failing_entrant_is_forfeited_and_ranks_last_with_no_win(allowed: tuple[Path, str]) -> None:
    db, output = allowed
    assert "warning: entrant 'crasher' failed the pre-flight check" in output
    assert "forfeiting: crasher" in output  # the progress line
    assert "forfeits: crasher forfeited 6 matches in a row" in output  # the final summary
    code, output = invoke("standings", "--db", str(db), "--json")
    assert code == 0, output
    rows = json.loads(output)
    last = rows[-1]
    assert last["name"] == "crasher"
    assert (last["wins"], last["matches"], last["forfeits"]) == (0, 6, 6)
    assert last["faults"] == {"forfeit": 6} and last["rank_interval"][1] == 4
    assert all(row["forfeits"] == 0 and row["faults"] == {} for row in rows[:-1])


def test_standings_and_matches_as_csv(allowed: tuple[Path, str]) -> None:
    db, _ = allowed
    code, output = invoke("standings", "--db", str(db), "--csv")
    assert code == 0, output
    rows = list(csv.DictReader(io.StringIO(output)))
    assert [row["name"] for row in rows][-1] == "crasher"
    assert rows[-1]["faults"] == "forfeit 6" and rows[-1]["rank_interval_high"] == "4"
    assert {"decision_ms_median", "decision_ms_p99", "decision_ms_max", "bank_used_ms_max"} <= set(rows[0])
    code, output = invoke("matches", "--db", str(db), "--csv")
    assert code == 0, output
    seats = list(csv.DictReader(io.StringIO(output)))
    assert len(seats) == 24  # 12 matches of two seats
    crasher = [seat for seat in seats if seat["name"] == "crasher"]
    assert len(crasher) == 6 and all(seat["forfeited"] == "True" for seat in crasher)
    assert all(seat["faults"].startswith("forfeited: withdrawn: ") for seat in crasher)
    assert invoke("matches", "--db", str(db), "--csv", "--json") == (
        2,
        "error: choose one of --json and --csv\n",
    )


def test_stats_leave_forfeits_out_of_the_seat_table(allowed: tuple[Path, str]) -> None:
    db, _ = allowed
    code, output = invoke("stats", "--db", str(db), "--json")
    assert code == 0, output
    stats = json.loads(output)
    crasher = stats["entrants"].index("crasher")
    assert all(cell["ahead"] == 0 for cell in stats["head_to_head"][crasher])
    assert all(row[crasher]["share"] in (None, 1.0) for row in stats["head_to_head"])
    (seats,) = stats["seat_advantage"]
    assert seats["matches"] == 6  # the three tables of those who played, in both seat orders
    code, output = invoke("stats", "--db", str(db))
    assert code == 0 and "head to head" in output and "seats at tables of 2" in output


def test_play_refuses_bots_that_cannot_start(tmp_path: Path) -> None:
    logs = str(tmp_path / "logs")
    code, output = invoke("play", "--game", "saint_malo", "--bot", CRASH, "--bot", CRASH, "--log-dir", logs)
    assert code == 2, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 2 and all("failed the pre-flight check" in line for line in lines), output
