"""Bots called in the referee's process: the same matches as over gRPC, and the same fault policy."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.inprocess import BotClassError, load_bot_class
from server.record import MatchRecord
from server.resimulate import resimulate
from server.seats import SeatSpec
from server.store.repository import Store
from server.tournament.bracket import load_bracket
from server.tournament.runner import run_tournament, schedule_of
from tests.bots import inprocess_faulty

from .conftest import play

FAULTY = "tests.bots.inprocess_faulty"


def in_process(name: str, target: str) -> SeatSpec:
    return SeatSpec(name=name, bot_class=target)


def timeless(record: dict[str, Any]) -> dict[str, Any]:
    """A match record's JSON without what the clock measured (durations and latencies)."""
    return {
        **record,
        "duration_s": None,
        "seats": [{**seat, "time_used_ms": None} for seat in record["seats"]],
        "steps": [{**step, "latency_us": None} for step in record["steps"]],
    }


BRACKET = """\
name: both-ways
players: 2
seed: 7
time_control: {{decision_ms: 5000, bank_ms: 20000}}
entrants:
  - {{name: greedy, {greedy}}}
  - {{name: random-a, {random}}}
  - {{name: random-b, {random}}}
"""
OVER_GRPC = {"greedy": "command: python -m bots.greedy", "random": "command: python -m bots.random"}
IN_PROCESS = {
    "greedy": "transport: inprocess, bot: 'bots.greedy:GreedyBot'",
    "random": "transport: inprocess, bot: 'bots.random:RandomBot'",
}


def stored_records(folder: Path, entrants: dict[str, str]) -> list[dict[str, Any]]:
    """Run the bracket with ``entrants`` written this way; every stored match record, in schedule order."""
    folder.mkdir()
    path = folder / "both-ways.yaml"
    path.write_text(BRACKET.format(**entrants))
    bracket = load_bracket(path)
    tournament = run_tournament(bracket, bracket.database_path, workers=1)
    store = Store.open(bracket.database_path)
    try:
        assert tournament.id is not None
        records = [store.load_record(tournament.id, match.match_id) for match in schedule_of(bracket)]
    finally:
        store.close()
    return [record.to_json() for record in records if record is not None]


def test_a_bracket_in_process_stores_the_same_match_records_as_over_grpc(tmp_path: Path) -> None:
    grpc_records = stored_records(tmp_path / "grpc", OVER_GRPC)
    local_records = stored_records(tmp_path / "inprocess", IN_PROCESS)
    assert len(grpc_records) == len(local_records) == 6
    assert [timeless(r) for r in local_records] == [timeless(r) for r in grpc_records]
    assert all(
        step["latency_us"] is not None
        for r in local_records
        for step in r["steps"]
        if step["source"] == "bot"
    )


@pytest.fixture
def released() -> Iterator[None]:
    """Lets a hanging bot's abandoned thread finish once the test is over."""
    inprocess_faulty.RELEASE.clear()
    yield
    inprocess_faulty.RELEASE.set()


# bot class -> what every strike of the faulty seat says
STRIKES = {
    "RaisingBot": r"error status UNKNOWN: Exception calling application: the bot's own bug",
    "GarbageBot": r"error status UNKNOWN: Exception calling application: .+",
    "IllegalBot": r"illegal action: .*reroll must be a mask over the 5 dice, got 99 .+",
    "HangingBot": r"timeout: no reply within 300 ms",
    "ExitingBot": r"error status UNKNOWN: Exception calling application: 3",
}


@pytest.mark.parametrize("bot_class", sorted(STRIKES))
def test_a_faulty_bot_class_gets_strikes_and_the_match_completes(
    bot_class: str, tmp_path: Path, released: None
) -> None:
    specs = [in_process("victim", "bots.random:RandomBot"), in_process("faulty", f"{FAULTY}:{bot_class}")]
    record = play(specs, tmp_path, seed=3, decision_ms=300, bank_ms=0)
    victim, faulty = record.seats
    assert record.end_reason == "completed" and len(record.scores) == 2
    assert victim.strikes == 0 and victim.faults == [] and not victim.forfeited
    assert faulty.strikes == 3 and faulty.forfeited and faulty.forfeit_reason == "3 strikes"
    strikes = [fault for fault in faulty.faults if not fault.startswith("forfeited")]
    assert len(strikes) == 3
    assert all(re.fullmatch(rf"decision \d+ \(keep\): {STRIKES[bot_class]}", s) for s in strikes), strikes
    assert faulty.rank == 2
    resimulate(record)


def test_a_hanging_decision_is_abandoned_within_its_deadline(tmp_path: Path, released: None) -> None:
    """The referee waits a decision's time, not the bot's: three hung decisions cost about 3 x 300 ms."""
    specs = [in_process("victim", "bots.random:RandomBot"), in_process("faulty", f"{FAULTY}:HangingBot")]
    started = time.monotonic()
    record = play(specs, tmp_path, seed=3, decision_ms=300, bank_ms=0)
    assert time.monotonic() - started < 30  # each hung call waits 60 s unless abandoned
    assert [s.latency_us is not None and s.latency_us >= 300_000 for s in record.steps if s.strike] == [
        True
    ] * 3
    hung = [t for t in threading.enumerate() if t.name.startswith("in-process") and t.is_alive()]
    assert len(hung) >= 3  # left to finish on their own: a thread cannot be stopped


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        (f"{FAULTY}:BrokenConstructorBot", r"cannot load .+: RuntimeError: cannot start"),
        (
            "no_such_module_anywhere:Bot",
            r"cannot load .+: BotClassError: cannot import 'no_such_module_anywhere'",
        ),
        ("bots.cities.bot:CitiesHeuristicBot", r"does not play saint_malo \(plays: cities\)"),
    ],
)
def test_a_bot_class_that_cannot_play_forfeits_its_seat(target: str, reason: str, tmp_path: Path) -> None:
    record: MatchRecord = play(
        [in_process("ok", "bots.random:RandomBot"), in_process("bad", target)], tmp_path
    )
    assert record.end_reason == "completed"
    assert record.seats[1].forfeited and re.search(reason, record.seats[1].forfeit_reason or "")
    assert not record.seats[0].forfeited


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("bots.random", "expected module:Class"),
        ("bots.random:Nope", "module 'bots.random' has no 'Nope'"),
        ("bots.random:main", "bots.random:main is not a bot class"),
        ("no_such_module_anywhere:Bot", "cannot import 'no_such_module_anywhere': ModuleNotFoundError"),
    ],
)
def test_a_target_that_names_no_bot_class_is_refused(target: str, message: str) -> None:
    with pytest.raises(BotClassError, match=re.escape(message)):
        load_bot_class(target)
