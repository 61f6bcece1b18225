"""A ladder in a real SQLite file, filled through the ladder store's own methods: participants, bots
validated, matchmaking decisions, and matches played. A played match is a real match of the shared
tournament database (bots that played Saint Malo for real, one of them earning strikes and a
forfeit), marked ``playing`` and then stored and rated by ``LadderStore.finish_match``, as the
ladder's loop does."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from server.ladder.matchmaking import Table
from server.ladder.seating import match_id_of
from server.ladder.store import PLAYING, LadderStore
from server.record import MatchRecord
from server.steps_block import PackedRecord
from server.store.repository import Store

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
        """The tournament row that stands for the ladder."""
        self.tournament_id = self.ladder.tournament_id("the ladder", "saint_malo", 0, {})
        return self.tournament_id

    def decide(self) -> tuple[int, Table]:
        decided = self.ladder.decide(2, candidates=32, min_quality=0.0, seed=7)
        assert decided is not None
        return decided

    def start(self, ladder_match: int, record: int) -> PackedRecord:
        """Hand ``ladder_match`` to a worker (``playing``), to be played as ``records[record]`` was."""
        self.ladder.set_match_status(ladder_match, PLAYING)
        return PackedRecord.pack(
            dataclasses.replace(self.records[record], match_id=match_id_of(ladder_match))
        )

    def finish(self, ladder_match: int, played: PackedRecord) -> None:
        """Store the played match and rate it, in one transaction."""
        assert self.tournament_id is not None
        assert self.ladder.finish_match(self.tournament_id, ladder_match, played)

    def play(self, record: int) -> int:
        """Decide the next table, play it as ``records[record]`` and count it; the ladder match."""
        ladder_match, _ = self.decide()
        self.finish(ladder_match, self.start(ladder_match, record))
        return ladder_match
