"""The ladder's ratings recomputed from the database alone, to check the ones it shows.

The loop stores every played match with an ``index`` giving the order in which its result was
applied to the ratings. Replaying the stored matches in that order from the initial rating, with
the same TrueSkill update (:func:`server.tournament.ratings.rate`), must give every bot exactly its
stored mu, sigma and games; and every matchmaking decision must have used ratings that the bots
really had at some point of that replay (their initial rating or one of their snapshots), with the
stored match seating exactly the bots the decision chose, in its order.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from server.tournament.ratings import ENVIRONMENT, rate

from .config import InitialRating
from .seating import match_id_of
from .store import DONE, LadderStore

__all__ = ["Recomputed", "Replay", "recompute"]

TOLERANCE = 1e-9
"""Largest difference between a stored and a recomputed mu or sigma counted as equal."""


@dataclass(frozen=True, slots=True)
class Recomputed:
    """A bot's rating and games as the replay gives them."""

    bot_id: int
    mu: float
    sigma: float
    games: int


@dataclass
class Replay:
    """The recomputed ratings of every bot, and every way the stored ones disagree with them."""

    bots: dict[int, Recomputed] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def recompute(store: LadderStore, initial: InitialRating) -> Replay:
    """Replay the stored results and decisions of the ladder in ``store``."""
    bots = store.bots()
    replay = Replay()
    if not bots:
        return replay
    size = max(bot.id for bot in bots) + 1
    tournament_id = store.existing_tournament_id()
    results = [] if tournament_id is None else store.store.results(tournament_id)
    start = ENVIRONMENT.create_rating(initial.mu, initial.sigma)
    ratings, history = rate(size, results, [start] * size)
    games = Counter(entrant for result in results for entrant in result.entrants)
    for bot in bots:
        mine = Recomputed(bot.id, ratings[bot.id].mu, ratings[bot.id].sigma, games[bot.id])
        replay.bots[bot.id] = mine
        if not (_same(bot.mu, mine.mu) and _same(bot.sigma, mine.sigma) and bot.games == mine.games):
            replay.problems.append(
                f"{bot.participant}/{bot.name}: stored mu {bot.mu}, sigma {bot.sigma}, {bot.games} games; "
                f"recomputed mu {mine.mu}, sigma {mine.sigma}, {mine.games} games"
            )
    had: dict[int, list[tuple[float, float]]] = {bot.id: [(start.mu, start.sigma)] for bot in bots}
    for snapshot in history:
        had[snapshot.entrant].append((snapshot.mu, snapshot.sigma))
    seated = {result.match_id: result.entrants for result in results}
    for match, seats in store.decisions():
        chosen = tuple(seat.bot_id for seat in seats)
        for seat in seats:
            if not any(_same(seat.mu, mu) and _same(seat.sigma, sigma) for mu, sigma in had[seat.bot_id]):
                replay.problems.append(
                    f"decision {match.id}: bot {seat.bot_id} was never rated mu {seat.mu}, sigma {seat.sigma}"
                )
        if match.status == DONE and seated.get(match_id_of(match.id or 0)) != chosen:
            replay.problems.append(f"decision {match.id}: its stored match does not seat the bots it chose")
    return replay


def _same(stored: float, recomputed: float) -> bool:
    return math.isclose(stored, recomputed, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
