"""Decision times, time bank used and faults by kind: kept with each stored match of real matches,
and exactly what the replays give."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from server.clock_use import bank_left
from server.record import MatchRecord, StepRecord
from server.store.repository import Placement, Store
from server.tournament.conduct import Conduct, conduct, fault_kind
from server.tournament.report import entrant_names, standing_rows

from ..server.conftest import launched, play
from .test_run import cli

FAULTS_BRACKET = """\
name: faults
game: saint_malo
players: 2
rounds: 1
seed: 5
time_control: {decision_ms: 100, bank_ms: 300}
entrants:
  - {name: sleepy, command: python -m tests.bots.faulty_bot --fault sleep --at 1}
  - {name: illegal, command: python -m tests.bots.faulty_bot --fault illegal --at 2}
  - {name: random, command: python -m bots.random}
"""


def stored_conduct(record: MatchRecord, folder: Path) -> list[Conduct]:
    """The conduct of the match's entrants as the store keeps it, the match stored in a new database."""
    store = Store.open(folder / "conduct.db", create=True)
    try:
        entrants: list[tuple[str, dict[str, object]]] = [(seat.name, {}) for seat in record.seats]
        tournament = store.create_tournament(
            name="t", game="saint_malo", fingerprint="f", bracket={}, seed=1, entrants=entrants
        )
        assert tournament.id is not None
        assert store.save_match(tournament.id, Placement(0, 1, 0, 0), record, range(len(entrants)))
        return conduct(len(entrants), store.conduct(tournament.id))
    finally:
        store.close()


def test_a_bot_that_sleeps_empties_its_bank_and_its_timeouts_are_counted(tmp_path: Path) -> None:
    specs = [
        launched("sleepy", "tests.bots.faulty_bot", "--fault", "sleep", "--at", "1"),
        launched("ok", "bots.random"),
    ]
    record = play(specs, tmp_path, decision_ms=100, bank_ms=300)
    sleepy, ok = stored_conduct(record, tmp_path)
    assert sleepy.faults == {"timeout": 3, "forfeit": 1}
    assert sleepy.bank_used_ms == [300.0]  # the first timeout took all of it
    assert sum(ms >= 100 for ms in sleepy.latencies_ms) == 3  # its keep decisions; it places in time
    figures = ok.to_json()
    assert figures["faults"] == {}
    times = figures["decision_ms"]
    assert isinstance(times, dict) and 0 < times["median"] <= times["p99"] <= times["max"]


def test_a_withdrawn_entrant_is_forfeited_without_being_started(tmp_path: Path) -> None:
    specs = [
        replace(launched("gone", "bots.random"), withdrawn="failed the pre-flight check"),
        launched("ok", "bots.random"),
    ]
    record = play(specs, tmp_path)
    assert (
        record.seats[0].forfeited
        and record.seats[0].forfeit_reason == "withdrawn: failed the pre-flight check"
    )
    assert not list(tmp_path.glob("*gone*.log"))  # never launched
    assert record.ranks == [2, 1]
    (gone, _) = stored_conduct(record, tmp_path)
    assert len(gone.latencies_ms) == 0 and gone.to_json()["decision_ms"] == {
        "median": None,
        "p99": None,
        "max": None,
    }


def test_time_beyond_the_decision_comes_off_the_bank() -> None:
    def step(latency_ms: float, strike: str | None = None) -> StepRecord:
        return StepRecord(
            seq=0, kind="keep", step={}, seat=0, latency_us=int(latency_ms * 1000), strike=strike
        )

    assert bank_left([step(50), step(150), step(400)], 100, 1000) == 650.0
    assert bank_left([step(50), step(2000)], 100, 1000) == 0.0  # never below zero
    assert bank_left([step(150), step(100, "timeout: no reply within 1100 ms"), step(150)], 100, 1000) == 0.0


def test_every_fault_line_of_the_referee_has_its_kind() -> None:
    assert fault_kind("decision 4 (keep): timeout: no reply within 300 ms") == "timeout"
    assert fault_kind("decision 1 (place): illegal action: no such space (in ...)") == "illegal_action"
    assert fault_kind("decision 2 (keep): error status INTERNAL: boom") == "error_status"
    assert fault_kind("decision 9 (keep): stale reply: it answers decision 8, not 9") == "stale_reply"
    assert fault_kind("forfeited: 3 strikes") == "forfeit"
    assert fault_kind("EndMatch failed: UNAVAILABLE") == "end_match_failed"


def from_replays(store: Store, tournament_id: int) -> dict[str, dict[str, object]]:
    """Each entrant's decision times, bank used and faults worked out from the stored replays."""
    names = entrant_names(store, tournament_id)
    latencies: dict[str, list[float]] = {name: [] for name in names}
    banks: dict[str, list[float]] = {name: [] for name in names}
    faults: dict[str, dict[str, int]] = {name: {} for name in names}
    for match, _ in store.matches(tournament_id):
        record = store.load_record(tournament_id, match.match_id)
        assert record is not None
        decision_ms, bank_ms = record.time_control["decision_ms"], record.time_control["bank_ms"]
        for seat in record.seats:
            timed = [s for s in record.steps if s.seat == seat.seat and s.latency_us is not None]
            latencies[seat.name] += [s.latency_us / 1000 for s in timed if s.latency_us is not None]
            banks[seat.name].append(bank_ms - bank_left(timed, decision_ms, bank_ms))
            for fault in seat.faults:
                faults[seat.name][fault_kind(fault)] = faults[seat.name].get(fault_kind(fault), 0) + 1
    return {
        name: {
            "decision_ms": {
                figure: round(float(np.percentile(latencies[name], q)), 3)
                for figure, q in (("median", 50), ("p99", 99), ("max", 100))
            },
            "bank_used_ms": {
                "mean": round(float(np.mean(banks[name])), 3),
                "max": round(float(np.max(banks[name])), 3),
            },
            "faults": dict(sorted(faults[name].items())),
        }
        for name in names
    }


def test_the_standings_conduct_is_what_the_replays_of_a_stored_tournament_give(tmp_path: Path) -> None:
    bracket = tmp_path / "faults.yaml"
    bracket.write_text(FAULTS_BRACKET)
    db = tmp_path / "faults.db"
    code, output = cli("run", str(bracket), "--db", str(db))
    assert code == 0, output
    store = Store.open(db)
    try:
        tournament = store.tournament()
        assert tournament is not None and tournament.id is not None
        expected = from_replays(store, tournament.id)
        rows = {row["name"]: row for row in standing_rows(store, tournament.id)}
    finally:
        store.close()
    assert {name: {key: rows[name][key] for key in expected[name]} for name in rows} == expected
    assert rows["sleepy"]["faults"]["timeout"] > 0 and rows["illegal"]["faults"]["illegal_action"] > 0
