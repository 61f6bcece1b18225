"""Match schedules: who meets whom, in which seats, with which seed, in which order.

A schedule is a pure function of its inputs, so a tournament can be resumed or
audited by rebuilding it. Ratings are applied in schedule order (round, table,
seat rotation), so that order is part of the contract.

Tables of a round are every ``players``-subset of the entrants when there are at
most ``max_tables`` of them; otherwise a *balanced design*: every pair of
entrants meets equally often (±1, at least once) and every entrant plays equally
many tables (±1), in close to the fewest tables that allow it. The design is
built once per (entrants, players, seed) by :mod:`.design` and each round uses it relabelled by a
permutation seeded by (seed, round): every round is equally balanced, yet the
pairs that meet one extra time differ from round to round, so over many rounds
no pair is favoured.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from server.seeds import derive_seed

from .design import balanced_design, stable_sample

__all__ = [
    "MAX_ENTRANTS",
    "MAX_MATCHES",
    "ScheduleTooLargeError",
    "ScheduledMatch",
    "make_schedule",
    "round_matches",
    "round_robin",
    "round_tables",
    "schedule_size",
]

MAX_MATCHES = 100_000
"""Most matches in one schedule: at a match a second, a day of play; built in well under a second."""
MAX_ENTRANTS = 128
"""Most entrants: the balanced design of 128 takes about two seconds to build, and grows as n²."""


class ScheduleTooLargeError(ValueError):
    """The schedule asked for would have more than :data:`MAX_MATCHES` matches."""


@dataclass(frozen=True, slots=True)
class ScheduledMatch:
    """One match of a schedule: a table of a round, played in one seat rotation."""

    index: int
    """Position in schedule order (0-based); ratings are applied in this order."""
    match_id: str
    """Unique and stable, zero-padded so that ids sort in schedule order."""
    round: int
    """1-based round."""
    table: int
    """0-based table number within the round."""
    rotation: int
    """0-based seat rotation of the table."""
    seats: tuple[int, ...]
    """Entrant indices in seat order (seat 0 moves first)."""
    seed: int
    """Match seed."""


def make_schedule(
    entrants: int,
    players: int,
    *,
    rounds: int,
    seed: int,
    duplicate: bool = False,
    max_tables: int = 500,
) -> list[ScheduledMatch]:
    """The schedule of a round robin: every match in the order it is rated.

    ``duplicate`` gives the seat rotations of one table one shared seed, so every
    entrant of the table faces the same chance outcomes from every seat.
    """
    size = schedule_size(entrants, players, rounds=rounds, seed=seed, max_tables=max_tables)
    if size > MAX_MATCHES:
        raise ScheduleTooLargeError(
            f"the schedule would have {size:,} matches; at most {MAX_MATCHES:,} are played in one tournament"
        )
    return round_robin(
        entrants, players, rounds=rounds, seed=seed, duplicate=duplicate, max_tables=max_tables
    )


def schedule_size(entrants: int, players: int, *, rounds: int, seed: int, max_tables: int = 500) -> int:
    """How many matches a round robin of these arguments has, found without building it.

    Counting every ``players``-subset costs nothing; a balanced design is built (and cached
    for the schedule itself), which :data:`MAX_ENTRANTS` keeps to a couple of seconds.
    """
    _check_int("entrants", entrants, 2)
    _check_int("players", players, 2)
    if players > entrants:
        raise ValueError(f"players must be between 2 and entrants ({entrants}), got {players}")
    if entrants > MAX_ENTRANTS:
        raise ScheduleTooLargeError(f"at most {MAX_ENTRANTS} entrants, got {entrants}")
    _check_int("rounds", rounds, 1)
    _check_int("max_tables", max_tables, 1)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    tables = comb(entrants, players)
    if tables > max_tables:
        tables = len(balanced_design(entrants, players, seed=derive_seed(seed, "design")))
    return rounds * tables * players


def round_robin(
    entrants: int, players: int, *, rounds: int, seed: int, duplicate: bool, max_tables: int
) -> list[ScheduledMatch]:
    """Every round plays all tables of :func:`round_tables`, each in every seat rotation."""
    base, complete = _base_tables(entrants, players, seed, max_tables)
    matches: list[ScheduledMatch] = []
    for round_ in range(1, rounds + 1):
        tables = list(base) if complete else _relabel(base, entrants, seed, round_)
        matches += round_matches(
            tables, round_=round_, rounds=rounds, seed=seed, duplicate=duplicate, first_index=len(matches)
        )
    return matches


def round_matches(
    tables: Sequence[tuple[int, ...]],
    *,
    round_: int,
    rounds: int,
    seed: int,
    duplicate: bool,
    first_index: int,
    prefix: str = "",
    repeats: int = 1,
) -> list[ScheduledMatch]:
    """The matches of one round: each table in every seat rotation, ``repeats`` times over.

    Ids and seeds follow from the position alone (round, table, rotation, and ``prefix``,
    a stage's name), never from when or where a match is played; ``rounds`` (the most the
    stage can have) only sets the width of the round number, so that ids sort.
    """
    round_width = len(str(rounds))
    table_width = max(3, len(str(len(tables) - 1)))
    matches: list[ScheduledMatch] = []
    for table, members in enumerate(tables):
        players = len(members)
        rotations = players * repeats
        rotation_width = len(str(rotations - 1))
        parts: tuple[object, ...] = (seed, round_, table) if not prefix else (seed, prefix, round_, table)
        for rotation in range(rotations):
            shift = rotation % players
            if duplicate:
                chance = (
                    derive_seed(*parts)
                    if repeats == 1
                    else derive_seed(*parts, "repeat", rotation // players)
                )
            else:
                chance = derive_seed(*parts, rotation)
            matches.append(
                ScheduledMatch(
                    index=first_index + len(matches),
                    match_id=(
                        f"{prefix}{'.' if prefix else ''}r{round_:0{round_width}d}-t{table:0{table_width}d}"
                        f"-s{rotation:0{rotation_width}d}"
                    ),
                    round=round_,
                    table=table,
                    rotation=rotation,
                    seats=tuple(members[(seat + shift) % players] for seat in range(players)),
                    seed=chance,
                )
            )
    return matches


def round_tables(
    entrants: int, players: int, *, seed: int, round: int, max_tables: int = 500
) -> list[tuple[int, ...]]:
    """The tables (sorted entrant tuples) of one round of a round robin, in play order.

    Every ``players``-subset in lexicographic order when there are at most ``max_tables``;
    otherwise the balanced design relabelled for the round (its size may exceed
    ``max_tables``, which only chooses between the two).
    """
    base, complete = _base_tables(entrants, players, seed, max_tables)
    return list(base) if complete else _relabel(base, entrants, seed, round)


def _base_tables(
    entrants: int, players: int, seed: int, max_tables: int
) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """All subsets (and True) when few enough, else the balanced design (and False)."""
    if comb(entrants, players) <= max_tables:
        return tuple(combinations(range(entrants), players)), True
    return balanced_design(entrants, players, seed=derive_seed(seed, "design")), False


def _relabel(
    design: tuple[tuple[int, ...], ...], entrants: int, seed: int, round_: int
) -> list[tuple[int, ...]]:
    """``design`` with entrants permuted for ``round_``: exactly as balanced, but the
    pairs that meet once more than others change from round to round."""
    label = stable_sample(random.Random(derive_seed(seed, "relabel", round_)), entrants, entrants)
    return [tuple(sorted(label[e] for e in table)) for table in design]


def _check_int(name: str, value: object, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
