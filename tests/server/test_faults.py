"""Each way a bot can misbehave, with a real misbehaving bot process.

In every case the match completes, the fault is recorded with a clear reason,
the other seat is unaffected, the record still re-simulates, and no bot process
is left behind.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sdk.games.registry import get_game
from server.launcher import Limits
from server.record import MatchRecord
from server.referee import RefereeConfig, TimeControl, run_match
from server.resimulate import resimulate

from ..commands import invoke, run_process
from ..conftest import processes_with
from .conftest import launched, play

# fault -> (reason every strike/fault line of the faulty seat matches, forfeit reason)
CASES: dict[str, tuple[str, str]] = {
    "sleep": (r"timeout: no reply within \d+ ms", r"3 strikes"),
    "illegal": (r"illegal action: R3 keep: reroll must be a mask over the 5 dice", r"3 strikes"),
    "empty": (r"empty reply", r"3 strikes"),
    "garbage": (r"error status INTERNAL", r"3 strikes"),
    "wrong_kind": (r"illegal action: R4 place: the chosen symbol is \w+: expected Place\w+", r"3 strikes"),
    "huge": (r"reply too large", r"3 strikes"),
    "stale": (r"stale reply: it answers decision \d+, not \d+", r"3 strikes"),
    "crash": (r"unreachable|exited", r"bot process exited with status 3"),
    "exit_after_hello": (r"exited|unreachable", r"bot process exited with status 4|unreachable"),
    "unhealthy": (r"start-up failed", r"start-up failed: not healthy \(SERVING\) within 6 s"),
    "no_health": (
        r"start-up failed",
        r"start-up failed: the health check \(grpc.health.v1.Health/Check\) answered UNIMPLEMENTED",
    ),
}


def _faulty_match(fault: str, tmp_path: Path, tag: str) -> MatchRecord:
    specs = [
        launched("victim", "bots.random", tag=tag),
        launched("faulty", "tests.bots.faulty_bot", "--fault", fault, "--at", "2", tag=tag),
    ]
    # Building a 100 MB reply takes the bot a while: give it time, so the size limit is what trips.
    decision_ms = 10_000 if fault == "huge" else 300
    # The start-up timeout is both seats': short, so the never-healthy bot is given up on soon, but long
    # enough for the other bot to start on a busy machine.
    startup_s = 6.0 if fault == "unhealthy" else 30.0
    return play(specs, tmp_path, decision_ms=decision_ms, bank_ms=300, startup_timeout_s=startup_s, seed=3)


@pytest.mark.parametrize("fault", sorted(CASES))
def test_fault_is_recorded_and_the_match_completes(fault: str, tmp_path: Path, tag: str) -> None:
    strike_pattern, forfeit_pattern = CASES[fault]
    record = _faulty_match(fault, tmp_path, tag)

    assert processes_with(tag) == [], "a bot process was left behind"
    victim, faulty = record.seats
    assert len(record.scores) == 2 and record.end_reason == "completed"
    assert victim.strikes == 0 and not victim.forfeited and victim.faults == []
    assert faulty.forfeited and faulty.forfeit_reason is not None
    assert re.search(forfeit_pattern, faulty.forfeit_reason), faulty.forfeit_reason
    assert faulty.faults and all(re.search(strike_pattern, f) for f in faulty.faults[:-1]), faulty.faults
    assert faulty.rank == 2  # a forfeited seat ranks last whatever its score
    strikes = [s for s in record.steps if s.strike]
    assert len(strikes) == faulty.strikes
    assert all(s.seat == 1 and s.source == "default" for s in strikes)
    # After forfeiting, the fallback plays every decision of the seat.
    forfeited_at = max((s.seq for s in strikes), default=-1)
    later = [s for s in record.steps if s.seat == 1 and s.seq > forfeited_at]
    assert later and all(s.source == "fallback" for s in later)
    resimulate(record)


def test_the_referee_still_plays_cleanly_after_faults(tmp_path: Path, tag: str) -> None:
    """Faulty bots leave nothing behind that affects the next match in this process."""
    _faulty_match("crash", tmp_path / "crash", tag)
    clean = play([launched("a", "bots.random", tag=tag), launched("b", "bots.greedy", tag=tag)], tmp_path)
    assert all(seat.strikes == 0 and not seat.forfeited for seat in clean.seats)
    assert processes_with(tag) == []


def test_a_command_that_cannot_start_forfeits_the_seat(tmp_path: Path) -> None:
    specs = [launched("ok", "bots.random"), launched("missing", "no_such_module_anywhere")]
    record = play(specs, tmp_path, startup_timeout_s=10.0)
    assert record.seats[1].forfeited
    reason = record.seats[1].forfeit_reason or ""
    assert "exited with status 1 before becoming healthy; its last output: " in reason
    assert reason.endswith("No module named no_such_module_anywhere"), reason  # the line that says why
    assert "No module named" in next(tmp_path.glob("*missing*.log")).read_text()


def test_a_memory_limit_is_enforced(tmp_path: Path) -> None:
    """A bot cannot even start inside a 50 MB address space: the seat is forfeited, nothing crashes."""
    config = RefereeConfig(TimeControl(500, 500), startup_timeout_s=10.0, limits=Limits(memory_mb=50))
    specs = [launched("a", "bots.random"), launched("b", "bots.random")]
    record = run_match(get_game("saint_malo"), specs, match_id="m", seed=1, config=config, log_dir=tmp_path)
    assert all(seat.forfeited for seat in record.seats)
    assert "MemoryError" in (tmp_path / "m.seat0.a.log").read_text()


def test_the_strike_is_recorded_before_the_forfeit_it_causes(tmp_path: Path, tag: str) -> None:
    """docs/fault-policy.md: an unreachable bot's strike goes on the fault list, then its forfeit."""
    faulty = _faulty_match("crash", tmp_path, tag).seats[1]
    assert faulty.strikes == 1 and faulty.forfeited
    strike, forfeit = faulty.faults
    assert re.fullmatch(r"decision \d+ \(\w+\): unreachable: .+", strike), strike
    assert forfeit == f"forfeited: {faulty.forfeit_reason}" == "forfeited: bot process exited with status 3"


def test_a_bot_method_that_raises_is_named_in_the_tournament_record(tmp_path: Path, tag: str) -> None:
    """``matches --json`` shows the exception's message, and the log it names holds the traceback."""
    bracket = tmp_path / "raise.yaml"
    bracket.write_text(
        "name: raise\ngame: saint_malo\nplayers: 2\nrounds: 1\nseed: 3\n"
        "time_control: {decision_ms: 5000, bank_ms: 20000}\nentrants:\n"
        f"  - {{name: raising, command: python -m tests.bots.raising_bot, env: {{TAG: {tag}}}}}\n"
        f"  - {{name: random, command: python -m bots.random, env: {{TAG: {tag}}}}}\n"
    )
    assert run_process("run", str(bracket), timeout=240).code == 0
    code, output = invoke("matches", "--db", str(bracket.with_suffix(".db")), "--json")
    assert code == 0, output
    faults = [f for match in json.loads(output) for seat in match["seats"] for f in seat["faults"]]
    raised = [
        re.fullmatch(r"decision \d+ \(\w+\): the bot raised ValueError: boom-3141 \(traceback in (.+)\)", f)
        for f in faults
    ]
    logs = {Path(m[1]) for m in raised if m is not None}
    assert logs and len([m for m in raised if m]) == 6, faults  # three strikes in each of two matches
    for log in logs:
        text = log.read_text()
        assert "Traceback (most recent call last)" in text and "ValueError: boom-3141" in text
    assert processes_with(tag) == []
