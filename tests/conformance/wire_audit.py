"""Audit what the referee really sent each bot: every request of a stored tournament, as recorded by
``tests.bots.recording_bot``, checked against the engine's full state at that decision."""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdk.games.decisions import DecisionContext
from sdk.games.plugin import GamePlugin, GameState
from sdk.games.registry import get_game
from server.record import MatchRecord, StepRecord
from server.resimulate import resimulate
from server.store.repository import Store

#: Redraws of the hidden state per request: each must give the seat byte-identical content.
RESAMPLES = 3


@dataclass(frozen=True, slots=True)
class Received:
    """One request as a bot received it."""

    kind: str
    raw: bytes


def received_requests(record_dir: Path) -> dict[tuple[str, int, int], Received]:
    """Every recorded request by (match id, seat, decision id); a key seen twice is an error."""
    found: dict[tuple[str, int, int], Received] = {}
    for path in sorted(record_dir.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            key = (entry["match_id"], entry["seat"], entry["decision_id"])
            assert key not in found, f"two requests carry match, seat and decision id {key}"
            found[key] = Received(entry["kind"], base64.b64decode(entry["bytes"]))
    return found


def stored_records(db: Path) -> Iterator[MatchRecord]:
    store = Store.open(db)
    try:
        for tournament in store.tournaments():
            assert tournament.id is not None
            for match, _ in store.matches(tournament.id):
                record = store.load_record(tournament.id, match.match_id)
                assert record is not None
                yield record
    finally:
        store.close()


def _content(request: Any) -> bytes:
    """The request without its context (whose bank figure depends on timing)."""
    copy = type(request)()
    copy.CopyFrom(request)
    copy.ClearField("context")
    return bytes(copy.SerializeToString())


def _forbidden_numbers(record: MatchRecord, tournament_seed: int) -> list[bytes]:
    """Encodings of the seeds as they could appear in a message: varint and decimal text.

    Both seeds must be large (as match seeds are), or their encodings would turn up by chance.
    """
    assert tournament_seed >= 2**40, "audit with a large tournament seed"
    patterns = []
    for seed in (record.seed, tournament_seed):
        varint, value = bytearray(), seed
        while True:
            byte, value = value & 0x7F, value >> 7
            varint.append(byte | (0x80 if value else 0))
            if not value:
                break
        patterns += [bytes(varint), str(seed).encode()]
    return patterns


class MatchAudit:
    """Checks each decision step of one match against the request its bot received."""

    def __init__(
        self, record: MatchRecord, received: dict[tuple[str, int, int], Received], seed: int
    ) -> None:
        self.record, self.received = record, received
        self.plugin: GamePlugin = get_game(record.game)
        self.rng = random.Random(record.match_id)
        self.forbidden = _forbidden_numbers(record, seed)
        self.counts = [0] * record.players
        self.checked = 0
        self.spectator_checked = 0
        self.group: tuple[int, GameState] | None = None  # where the decisions asked together began

    def __call__(self, step: StepRecord, action: Any, state: GameState) -> None:
        self.check_spectator(step, state)
        if step.seat is None:
            return
        self.counts[step.seat] += 1
        if step.asked_at == step.seq:
            self.group = (step.seq, state.clone())
        if step.source != "bot":
            return
        if step.asked_at is not None:  # asked together with others: from the group's first position
            assert self.group is not None and self.group[0] == step.asked_at, f"step {step.seq}: no group"
            state = self.group[1]
        seat, plugin = step.seat, self.plugin
        where = f"{self.record.match_id} step {step.seq} (seat {seat}, {step.kind})"
        got = self.received.pop((self.record.match_id, seat, self.counts[seat]), None)
        assert got is not None, f"{where}: the bot never received this request"
        assert got.kind == step.kind == plugin.decision_kind(state), f"{where}: wrong decision kind"
        assert seat in plugin.deciding_seats(state), f"{where}: the seat was not deciding"
        spec = plugin.decisions[step.kind]
        request: Any = spec.request_type.FromString(got.raw)
        context = request.context
        assert (context.match_id, context.seat, context.decision_id) == (
            self.record.match_id,
            seat,
            self.counts[seat],
        ), f"{where}: the context is not this seat's own count"
        ours = DecisionContext(self.record.match_id, self.counts[seat], seat, 0, 0)
        expected = _content(spec.encode_request(plugin.observe(state, seat), ours))
        assert _content(request) == expected, f"{where}: the request is not the seat's observation"
        for _ in range(RESAMPLES):
            twin = plugin.resample_hidden(state, seat, self.rng)
            twin_request = spec.encode_request(plugin.observe(twin, seat), ours)
            assert _content(twin_request) == expected, f"{where}: the request depends on hidden state"
        for pattern in self.forbidden:
            assert pattern not in got.raw, f"{where}: a seed is in the request"
        self.checked += 1

    def check_spectator(self, step: StepRecord, state: GameState) -> None:
        """What the public is shown of a match in progress holds no seat's secret: it is the same
        when one seat's hidden information (a seat in turn, step by step) is redrawn."""
        seat = step.seq % self.record.players
        shown = self.plugin.spectator_view(state)
        twin = self.plugin.resample_hidden(state, seat, self.rng)
        where = f"{self.record.match_id} step {step.seq}"
        leak = f"{where}: the spectator view shows seat {seat}'s secrets"
        assert self.plugin.spectator_view(twin) == shown, leak
        self.spectator_checked += 1


def audit(db: Path, record_dir: Path, tournament_seed: int) -> tuple[int, int]:
    """Audit every stored match; return (matches, requests checked). Every received request must match."""
    received = received_requests(record_dir)
    matches = checked = 0
    for record in stored_records(db):
        check = MatchAudit(record, received, tournament_seed)
        resimulate(record, check)
        assert check.spectator_checked == len(record.steps), f"{record.match_id}: a spectator view unchecked"
        matches += 1
        checked += check.checked
    assert not received, f"{len(received)} requests belong to no stored decision, e.g. {next(iter(received))}"
    return matches, checked
