"""Forming the next table of a ladder: a pure function of the active bots and their ratings.

The table is formed around the bot that most needs games (fewest games, then largest sigma, then
newest), completed by the bots whose two-player TrueSkill match quality with it is highest among the
``candidates`` nearest to it in mean rating, and refused when the whole table's match quality is below
the ladder's minimum; a bot playing a match now is not formed around. Seats are rotated by the
decision's number, so over many tables every bot sits in every seat. Nothing here reads a clock or
a random source: the same bots and number give the same table, so a decision can be checked against
the ratings stored with it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import trueskill

from server.tournament.ratings import ENVIRONMENT

__all__ = ["Rated", "Table", "form_table", "most_in_need", "pair_quality"]


@dataclass(frozen=True)
class Rated:
    """An active bot as matchmaking sees it; a larger ``id`` is a newer submission."""

    id: int
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> trueskill.Rating:
        return ENVIRONMENT.create_rating(self.mu, self.sigma)


@dataclass(frozen=True)
class Table:
    """A decision: the bot it was formed around, the bots in seat order, and its match quality."""

    focus: Rated
    seats: tuple[Rated, ...]
    quality: float


def most_in_need(bots: Sequence[Rated]) -> Rated:
    """The bot with the fewest games; among those, the most uncertain rating; then the newest."""
    return min(bots, key=lambda bot: (bot.games, -bot.sigma, -bot.id))


def form_table(
    bots: Sequence[Rated],
    players: int,
    *,
    candidates: int,
    min_quality: float,
    number: int,
    busy: Collection[int] = (),
) -> Table | None:
    """The table of decision ``number`` among ``bots`` (distinct ids), or None when there are too few
    bots, every bot is ``busy`` or the best table found is below ``min_quality``.

    A ``busy`` bot (one playing a match now) is not formed around, since its rating is about to
    change, but may complete a table: leaving it out altogether would split a small ladder into
    groups that only ever meet each other while matches run side by side."""
    if players < 2 or len({bot.id for bot in bots}) != len(bots):
        raise ValueError("a table has at least 2 seats, and each bot is given once")
    free = [bot for bot in bots if bot.id not in busy]
    if len(bots) < players or not free:
        return None
    focus = most_in_need(free)
    others = [bot for bot in bots if bot.id != focus.id]
    nearest = sorted(others, key=lambda bot: (abs(bot.mu - focus.mu), bot.id))[: max(candidates, players - 1)]
    chosen = sorted(nearest, key=lambda bot: (-pair_quality(focus, bot), bot.id))[: players - 1]
    members = [focus, *sorted(chosen, key=lambda bot: bot.id)]
    quality = float(ENVIRONMENT.quality([(bot.rating,) for bot in members]))
    if quality < min_quality:
        return None
    shift = number % players
    return Table(focus, tuple(members[shift:] + members[:shift]), quality)


def pair_quality(a: Rated, b: Rated) -> float:
    """TrueSkill's two-player match quality in closed form (the library's general matrix form is a
    hundred times slower, and this is computed for every candidate):
    ``sqrt(2 beta^2 / c) * exp(-(mu_a - mu_b)^2 / (2 c))`` with ``c = 2 beta^2 + sigma_a^2 + sigma_b^2``."""
    two_beta_squared = 2 * ENVIRONMENT.beta**2
    spread = two_beta_squared + a.sigma**2 + b.sigma**2
    return math.sqrt(two_beta_squared / spread) * math.exp(-((a.mu - b.mu) ** 2) / (2 * spread))
