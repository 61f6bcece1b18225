"""Full matches between launched bot processes, checked against the engine."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.protocol import saint_malo_pb2
from sdk.protocol.v1 import bot_pb2
from server.record import MatchRecord
from server.resimulate import resimulate

from ..conftest import processes_with
from .conftest import launched, play


def test_four_player_match_matches_a_resimulation(tmp_path: Path, tag: str) -> None:
    specs = [
        launched("greedy", "bots.greedy", "--address", "{address}", tag=tag),
        launched("random-a", "bots.random", tag=tag),
        launched("random-b", "bots.random", tag=tag),
        launched("random-c", "bots.random", tag=tag),
    ]
    record = play(specs, tmp_path, seed=11)
    assert processes_with(tag) == []

    decisions = [s for s in record.steps if s.kind != "chance"]
    assert decisions and all(s.source == "bot" and s.strike is None for s in decisions)
    assert all(s.latency_us is not None and s.latency_us > 0 for s in decisions)
    for seat in range(4):
        ids = [s.decision_id for s in decisions if s.seat == seat]
        assert ids == list(range(1, len(ids) + 1)), f"seat {seat} does not count its own decisions from 1"
    assert all(seat.strikes == 0 and not seat.forfeited for seat in record.seats)
    assert [seat.bot for seat in record.seats] == ["greedy 1.0"] + ["random 2.0"] * 3

    final = resimulate(record)
    assert isinstance(final, sm.State)
    assert final.scores() == record.scores == [seat.score for seat in record.seats]
    assert final.ranks() == record.ranks
    assert record.summary["turns"] == final.turn
    assert len(record.summary["pirate_attacks"]) == len(final.attacks)

    # The JSON form of the record is its fields as plain data; it round-trips and still re-simulates.
    assert record.to_json() == asdict(record)
    again = MatchRecord.from_json(record.to_json())
    assert again == record
    resimulate(again)
    # Bot output went to one log file per seat.
    assert len(list(tmp_path.glob("test-match.seat*.log"))) == 4


def test_same_seed_same_match(tmp_path: Path) -> None:
    specs = [launched("greedy", "bots.greedy"), launched("random", "bots.random")]
    first = play(specs, tmp_path / "a", seed=5)
    second = play(specs, tmp_path / "b", seed=5)
    assert [(s.kind, s.step, s.seat) for s in first.steps] == [(s.kind, s.step, s.seat) for s in second.steps]
    assert first.scores == second.scores


def test_no_message_of_the_protocol_can_carry_a_seed() -> None:
    """The referee owns the randomness: nothing a bot receives has a seed field."""
    names = []
    for module in (bot_pb2, saint_malo_pb2):
        for message in module.DESCRIPTOR.message_types_by_name.values():
            names += [field.name for field in message.fields]
    assert names and not [n for n in names if "seed" in n or "deck" in n]
