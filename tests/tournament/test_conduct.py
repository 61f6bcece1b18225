"""Decision times, time bank used and faults by kind, read from the records of real matches."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from server.record import StepRecord
from server.tournament.conduct import bank_left, conduct, fault_kind

from ..server.conftest import launched, play


def test_a_bot_that_sleeps_empties_its_bank_and_its_timeouts_are_counted(tmp_path: Path) -> None:
    specs = [
        launched("sleepy", "tests.bots.faulty_bot", "--fault", "sleep", "--at", "1"),
        launched("ok", "bots.random"),
    ]
    record = play(specs, tmp_path, decision_ms=100, bank_ms=300)
    sleepy, ok = conduct(["sleepy", "ok"], [record])
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
    (gone, _) = conduct(["gone", "ok"], [record])
    assert gone.latencies_ms == [] and gone.to_json()["decision_ms"] == {
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
