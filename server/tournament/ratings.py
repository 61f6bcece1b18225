"""TrueSkill ratings and standings, computed from finished matches in schedule order.

Applying results in schedule order (not completion order) makes the ratings
independent of worker count and timing.

Forfeits: the referee ranks every forfeited seat below every seat that was not
forfeited, so a forfeit enters TrueSkill as a loss to each of those seats (and,
among forfeited seats, the engine's order stands). A match in which every seat was
forfeited says nothing about the bots' play: it changes no rating and is nobody's win.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

import trueskill

from server.store.repository import MatchResult

from .statistics import rank_intervals

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
    rank_interval: tuple[int, int]
    """95 % interval of the rank under the rating model (:func:`statistics.rank_intervals`)."""

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
        if all(result.forfeited):
            continue
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
    total: list[float] = [0] * len(names)
    strikes = [0] * len(names)
    forfeits = [0] * len(names)
    for result in results:
        for seat, entrant in enumerate(result.entrants):
            played[entrant] += 1
            wins[entrant] += result.ranks[seat] == 1 and not result.forfeited[seat]
            total[entrant] += result.scores[seat]
            strikes[entrant] += result.strikes[seat]
            forfeits[entrant] += result.forfeited[seat]
    intervals = rank_intervals([r.mu for r in ratings], [r.sigma for r in ratings])
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
            rank_interval=intervals[i],
        )
        for place, (conservative, i, rating) in enumerate(rows)
    ]
