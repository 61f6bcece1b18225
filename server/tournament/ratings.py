"""TrueSkill ratings and standings, computed from finished matches in schedule order.

Applying results in schedule order (not completion order) makes the ratings
independent of worker count and timing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

import trueskill

from server.store.repository import MatchResult

#: Standard TrueSkill (mu 25, sigma 25/3); ties are rated as ties.
ENVIRONMENT = trueskill.TrueSkill()
DIGITS = 4


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's line of the standings (its JSON form has exactly these keys)."""

    rank: int
    name: str
    mu: float
    sigma: float
    conservative: float
    matches: int
    wins: int
    mean_score: float
    strikes: int
    forfeits: int

    def to_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """An entrant's rating right after a match."""

    match_index: int
    entrant: int
    mu: float
    sigma: float


def rate(
    entrant_count: int, results: Iterable[MatchResult], initial: Sequence[trueskill.Rating] = ()
) -> tuple[list[trueskill.Rating], list[Snapshot]]:
    """Final ratings per entrant and the history, applying ``results`` in the given order to
    ``initial`` (default: everyone's prior), so that ratings can also be brought up to date."""
    ratings = list(initial) or [ENVIRONMENT.create_rating() for _ in range(entrant_count)]
    history: list[Snapshot] = []
    for result in results:
        groups = [(ratings[e],) for e in result.entrants]
        updated = ENVIRONMENT.rate(groups, ranks=[r - 1 for r in result.ranks])
        for entrant, (rating,) in zip(result.entrants, updated, strict=True):
            ratings[entrant] = rating
            history.append(Snapshot(result.index, entrant, rating.mu, rating.sigma))
    return ratings, history


def standings(names: Sequence[str], results: Sequence[MatchResult]) -> list[Standing]:
    """Standings sorted by conservative rating (mu - 3 sigma), best first."""
    ratings, _ = rate(len(names), sorted(results, key=lambda r: r.index))
    played = [0] * len(names)
    wins = [0] * len(names)
    total = [0] * len(names)
    strikes = [0] * len(names)
    forfeits = [0] * len(names)
    for result in results:
        for seat, entrant in enumerate(result.entrants):
            played[entrant] += 1
            wins[entrant] += result.ranks[seat] == 1
            total[entrant] += result.scores[seat]
            strikes[entrant] += result.strikes[seat]
            forfeits[entrant] += result.forfeited[seat]
    rows = [(round(r.mu - 3 * r.sigma, DIGITS), i, r) for i, r in enumerate(ratings)]
    rows.sort(key=lambda row: (-row[0], names[row[1]]))
    return [
        Standing(
            rank=place + 1,
            name=names[i],
            mu=round(rating.mu, DIGITS),
            sigma=round(rating.sigma, DIGITS),
            conservative=conservative,
            matches=played[i],
            wins=wins[i],
            mean_score=round(total[i] / played[i], DIGITS) if played[i] else 0.0,
            strikes=strikes[i],
            forfeits=forfeits[i],
        )
        for place, (conservative, i, rating) in enumerate(rows)
    ]
