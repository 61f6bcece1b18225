"""What every format is given to form a round's tables, and the standing it may form them from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import trueskill

from server.store.repository import MatchResult

from ..ratings import DIGITS

Table = tuple[int, ...]
"""Entrant indices of one table, in the seat order of its first rotation."""


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A completed round of a stage: its tables and the results of all their matches."""

    tables: tuple[Table, ...]
    results: tuple[MatchResult, ...]


@dataclass(frozen=True, slots=True)
class RoundContext:
    """Everything a format may use to form the tables of one round of one group.

    Only completed rounds are in ``history``, so the tables follow from stored results
    alone: whoever plays the matches, in whatever order they finish.
    """

    pool: tuple[int, ...]
    """The group's entrants, in seed order (bracket order, or the order they qualified in)."""
    players: int
    round: int
    """1-based round of the stage."""
    seed: int
    """The group's seed."""
    max_tables: int
    candidates: frozenset[int]
    advance: int
    """Entrants of a table who go on (knockout)."""
    ratings: tuple[trueskill.Rating, ...]
    """Every entrant's rating over the stage's completed rounds (indexed by entrant)."""
    history: tuple[PlayedRound, ...]
    reseed: bool = False
    """Whether a knockout seeds those who go on again after every level."""


@dataclass(frozen=True, slots=True)
class Format:
    """A tournament format: how a round's tables are formed."""

    tables: Callable[[RoundContext], list[Table] | None]
    """The round's tables, or None when the format has ended by itself (a knockout's final)."""
    adaptive: bool
    """Whether tables depend on earlier results: then rounds are played one at a time."""
    ends_itself: bool = False
    """Whether the format decides its own number of rounds (``rounds`` then repeats each table)."""


def ranking(pool: Sequence[int], ratings: Sequence[trueskill.Rating]) -> list[tuple[int, trueskill.Rating]]:
    """``pool`` best first by conservative rating (mu - 3 sigma), as the standings order it;
    ties keep seed order."""

    def key(item: tuple[int, int]) -> tuple[float, int]:
        rating = ratings[item[1]]
        return -round(rating.mu - 3 * rating.sigma, DIGITS), item[0]

    return [(entrant, ratings[entrant]) for _, entrant in sorted(enumerate(pool), key=key)]
