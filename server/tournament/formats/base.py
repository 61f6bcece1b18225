"""What every format is given to form a round's tables, and the standing it may form them from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import trueskill

from server.store.repository import MatchResult

from ..ratings import DIGITS, rate

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
    entrant_count: int
    """Entrants of the whole bracket (ratings are indexed by entrant)."""
    history: tuple[PlayedRound, ...]


@dataclass(frozen=True, slots=True)
class Format:
    """A tournament format: how a round's tables are formed."""

    tables: Callable[[RoundContext], list[Table] | None]
    """The round's tables, or None when the format has ended by itself (a knockout's final)."""
    adaptive: bool
    """Whether tables depend on earlier results: then rounds are played one at a time."""
    ends_itself: bool = False
    """Whether the format decides its own number of rounds (``rounds`` then repeats each table)."""


def ranking(
    pool: Sequence[int], results: Sequence[MatchResult], entrant_count: int
) -> list[tuple[int, trueskill.Rating]]:
    """``pool`` best first by conservative rating (mu - 3 sigma) over ``results`` in schedule
    order, as the standings show it; ties keep seed order."""
    ratings, _ = rate(entrant_count, sorted(results, key=lambda r: r.index))
    order = sorted(
        enumerate(pool),
        key=lambda item: (-round(ratings[item[1]].mu - 3 * ratings[item[1]].sigma, DIGITS), item[0]),
    )
    return [(entrant, ratings[entrant]) for _, entrant in order]


def stage_results(history: Sequence[PlayedRound]) -> list[MatchResult]:
    return [result for played in history for result in played.results]
