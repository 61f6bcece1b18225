"""A ladder in a real SQLite file, filled through the ladder store's own methods: participants, bots
validated, matchmaking decisions, and matches played. A played match is a real match of the shared
tournament database (bots that played Saint Malo for real, one of them earning strikes and a
forfeit), stored in the ladder's tournament with ``Store.save_match`` and counted with
:func:`server.ladder.outcome.finish_match`, as the ladder's loop does."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from server.ladder.matchmaking import Table
from server.ladder.outcome import finish_match, start_match, stored_match_id
from server.ladder.store import LadderStore
from server.record import MatchRecord
from server.store.repository import Placement, Store

INITIAL_MU, INITIAL_SIGMA = 25.0, 25.0 / 3


class LadderFill:
    """The ladder in ``db``, with the recorded matches of ``source`` to play from."""

    def __init__(self, db: Path, source: Path) -> None:
        self.store = Store.open(db, create=True)
        self.ladder = LadderStore(self.store)
        with_source = Store.open(source)
        try:
            (tournament,) = with_source.tournaments()
            assert tournament.id is not None
            self.records: list[MatchRecord] = []
            for match, _ in with_source.matches(tournament.id):
                record = with_source.load_record(tournament.id, match.match_id)
                assert record is not None
                self.records.append(record)
        finally:
            with_source.close()
        self.tournament_id: int | None = None
        self.positions: dict[int, int] = {}

    def close(self) -> None:
        self.store.close()

    def participant(self, name: str) -> int:
        self.ladder.add_participant(name)
        (found,) = [p for p in self.ladder.participants() if p.name == name]
        assert found.id is not None
        return found.id

    def bot(self, participant_id: int, name: str, *, reason: str | None = None) -> int:
        """A bot submitted and validated: ``active``, or ``failed`` with ``reason``."""
        row = self.ladder.add_bot(
            participant_id, name, {"address": "127.0.0.1:1"}, mu=INITIAL_MU, sigma=INITIAL_SIGMA
        )
        self.ladder.finish_validation(row.id, passed=reason is None, reason=reason, max_active=5)
        return row.id

    def open_tournament(self) -> int:
        """The tournament row that stands for the ladder, with an entrant per bot so far."""
        bots = self.ladder.bots()
        tournament = self.store.create_tournament(
            name="the ladder",
            game="saint_malo",
            fingerprint="ladder",
            bracket={},
            seed=0,
            entrants=[(f"{row.participant}/{row.name}", {}) for row in bots],
        )
        assert tournament.id is not None
        self.tournament_id = tournament.id
        self.positions = {row.id: position for position, row in enumerate(bots)}
        return tournament.id

    def decide(self) -> tuple[int, Table]:
        decided = self.ladder.decide(2, candidates=32, min_quality=0.0, seed=7)
        assert decided is not None
        return decided

    def store_played(self, ladder_match: int, table: Table, record: int) -> int:
        """Play ``ladder_match`` as ``records[record]`` was played and store it; not counted yet.
        Returns the stored match's key."""
        assert self.tournament_id is not None
        start_match(self.store, ladder_match)
        played = dataclasses.replace(self.records[record], match_id=stored_match_id(ladder_match))
        saved = self.store.save_match(
            self.tournament_id,
            Placement(index=ladder_match, round=0, table=0, rotation=0),
            played,
            [self.positions[bot.id] for bot in table.seats],
        )
        assert saved
        pk = {m.match_id: m.id for m, _ in self.store.matches(self.tournament_id)}[played.match_id]
        assert pk is not None
        return pk

    def play(self, record: int) -> int:
        """Decide the next table, play it as ``records[record]`` and count it; the ladder match."""
        ladder_match, table = self.decide()
        pk = self.store_played(ladder_match, table, record)
        assert finish_match(self.store, ladder_match, pk)
        return ladder_match
