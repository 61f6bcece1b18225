"""Playing a tournament's progression without bots: each match's outcome drawn from entrants of
known strength (a performance of strength + N(0, 1) noise per seat), for tests of formats and of the
stopping rule, and for the stopping rule's benchmark."""

from __future__ import annotations

import random
from collections.abc import Sequence

from server.store.repository import MatchResult
from server.tournament.progression import Plan, Progression
from server.tournament.schedule import ScheduledMatch


def outcome(match: ScheduledMatch, strengths: Sequence[float], rng: random.Random) -> MatchResult:
    """The result of ``match``: seats ranked by strength plus unit normal noise."""
    performance = [strengths[e] + rng.gauss(0, 1) for e in match.seats]
    order = sorted(range(len(performance)), key=lambda seat: -performance[seat])
    ranks = [0] * len(performance)
    for place, seat in enumerate(order, start=1):
        ranks[seat] = place
    players = len(match.seats)
    return MatchResult(
        index=match.index,
        match_id=match.match_id,
        entrants=match.seats,
        scores=tuple(round(10 * p) for p in performance),
        ranks=tuple(ranks),
        strikes=(0,) * players,
        forfeited=(False,) * players,
    )


def play(
    plan: Plan, strengths: Sequence[float], seed: int
) -> tuple[Progression, list[ScheduledMatch], list[MatchResult]]:
    """Every batch of ``plan`` played to the end: the progression, the matches and their results."""
    rng = random.Random(seed)
    progression = Progression(plan)
    results: dict[int, MatchResult] = {}
    played: list[ScheduledMatch] = []
    while (batch := progression.next_batch(results)) is not None:
        for match in batch:
            results[match.index] = outcome(match, strengths, rng)
        played += batch
    return progression, played, [results[m.index] for m in played]
