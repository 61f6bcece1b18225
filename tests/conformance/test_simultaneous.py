"""Simultaneous decisions through the real referee and real bot processes: the example game's bids
are asked at once (each bidder's bot sees the others' requests arrive before it answers), applied in
seat order, recorded as asked together, and the match re-simulates and replays as before."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from sdk.games.registry import get_game
from server.launcher import Limits
from server.record import MatchRecord
from server.referee import RefereeConfig, TimeControl, run_match
from server.replay import build_replay
from server.resimulate import resimulate
from server.seats import SeatSpec

from .example_install import install_example_game

ROOT = Path(__file__).resolve().parents[2]


def _bot(name: str, module: str, meeting: Path) -> SeatSpec:
    path = os.pathsep.join([str(install_example_game()), str(ROOT)])
    return SeatSpec(
        name=name,
        command=f"{sys.executable} -m {module}",
        env={"PYTHONPATH": path, "SMTOURNEY_MEETING_DIR": str(meeting)},
        sandbox=False,  # the bots meet in a folder of the test's, outside any sandbox
    )


def _play(specs: list[SeatSpec], tmp_path: Path, decision_ms: int = 5000) -> MatchRecord:
    config = RefereeConfig(TimeControl(decision_ms, 10_000), limits=Limits(memory_mb=None))
    return run_match(
        get_game("blind_auction"),
        specs,
        match_id="together",
        seed=7,
        config=config,
        log_dir=tmp_path / "logs",
    )


@pytest.fixture(scope="module")
def meeting_match(tmp_path_factory: pytest.TempPathFactory) -> tuple[MatchRecord, Path]:
    tmp_path = tmp_path_factory.mktemp("together")
    meeting = tmp_path / "meeting"
    meeting.mkdir()
    specs = [_bot(f"meet-{seat}", "tests.bots.rendezvous_bot", meeting) for seat in range(3)]
    return _play(specs, tmp_path), meeting


def test_every_bidder_is_asked_before_any_answers(meeting_match: tuple[MatchRecord, Path]) -> None:
    record, meeting = meeting_match
    outcomes = (meeting / "outcomes.txt").read_text().split("\n")[:-1]
    bids = [step for step in record.steps if step.kind == "bid"]
    assert len(outcomes) == len(bids) > 3
    assert all(line.endswith(" met") for line in outcomes), outcomes
    assert all(step.source == "bot" for step in record.steps if step.seat is not None)


def test_bids_are_recorded_as_asked_together_and_claims_as_asked_alone(
    meeting_match: tuple[MatchRecord, Path],
) -> None:
    record, _ = meeting_match
    groups: dict[int, list[int]] = {}
    for step in record.steps:
        if step.kind == "claim":
            assert step.asked_at is None
        elif step.kind == "bid":
            assert step.asked_at is not None and step.asked_at <= step.seq
            groups.setdefault(step.asked_at, []).append(step.seat or 0)
    assert groups and all(len(seats) >= 2 for seats in groups.values())
    for first, seats in groups.items():
        assert record.steps[first].asked_at == first
        assert len(set(seats)) == len(seats)
    # each seat ran on its own clock: every bid's latency covers the wait for the others
    assert all(step.latency_us for step in record.steps if step.kind == "bid")


def test_a_match_with_simultaneous_decisions_re_simulates_and_replays(
    meeting_match: tuple[MatchRecord, Path],
) -> None:
    record, _ = meeting_match
    again = MatchRecord.from_json(record.to_json())
    assert again.to_json() == record.to_json()
    resimulate(again)
    mine = build_replay(again, seat=1)
    steps = [m["step"] for m in mine["moments"][1:] if m["step"] is not None]
    own = [s for s in steps if s["seat"] == 1 and s["kind"] == "bid"]
    others = [s for s in steps if s["seat"] not in (1, None) and s["kind"] == "bid"]
    assert own and all(s["asked_at"] is not None for s in own)
    assert others and all(s["asked_at"] is None and s["action"] is None for s in others)


def test_a_seat_that_fails_inside_a_group_strikes_alone(tmp_path: Path) -> None:
    """One bidder thinks far past its clock: its decisions time out and default, the other's stand."""
    meeting = tmp_path / "meeting"
    meeting.mkdir()
    slow = _bot("slow", "benchmarks.sleepy_bot", meeting)
    slow = SeatSpec(
        name=slow.name, command=slow.command, env={**slow.env, "SMTOURNEY_THINK_MS": "3000"}, sandbox=False
    )
    config = RefereeConfig(TimeControl(200, 100), limits=Limits(memory_mb=None))
    specs = [_bot("quick", "bots.random", meeting), slow]
    record = run_match(
        get_game("blind_auction"), specs, match_id="strikes", seed=7, config=config, log_dir=tmp_path / "logs"
    )
    slow_steps = [s for s in record.steps if s.seat == 1]
    assert [s.source for s in slow_steps[:3]] == ["default"] * 3
    assert all(s.strike and s.strike.startswith("timeout") for s in slow_steps[:3])
    assert record.seats[1].forfeited and record.seats[1].strikes == 3
    assert all(s.source == "fallback" for s in slow_steps[3:])
    assert all(s.source == "bot" for s in record.steps if s.seat == 0)
    assert any(s.asked_at is not None for s in record.steps if s.seat == 0)
    resimulate(record)
