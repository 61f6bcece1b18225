"""Knockout: tables of ``players``; the best ``advance`` of each table go on until one table
is left, the final.

A level's entrants are in seed order. When they do not fill whole tables, the best seeds
have a bye (go on without playing). The others are dealt to tables in snake order (seeds
1..t to tables 1..t, seeds t+1..2t back from table t to 1, and so on), so the best seeds
meet last. Each table plays ``rounds`` times in every seat rotation. At a table, entrants are
ordered by the sum of their ranks (fewest first), then their total score, then a draw seeded
by the tournament's seed. Those who go on are seeded for the next level byes first, then by
their place at their table, then by their previous seed.
"""

from __future__ import annotations

from ...seeds import derive_seed
from .base import Format, PlayedRound, RoundContext, Table


def levels(entrants: int, players: int, advance: int) -> list[int]:
    """Entrants at each level, the final last; ValueError when the final cannot be filled."""
    counts = [entrants]
    while counts[-1] > players:
        m = counts[-1]
        tables = m // players
        counts.append(tables * advance + m - tables * players)
    if counts[-1] < players:
        raise ValueError(
            f"{entrants} entrants at tables of {players} with {advance} going on leave {counts[-1]} "
            f"for the final table of {players}; change the entrants, players or advance"
        )
    return counts


def deal(seeded: tuple[int, ...], players: int) -> tuple[tuple[int, ...], list[Table]]:
    """The byes and the tables of a level whose entrants are ``seeded``."""
    tables = len(seeded) // players
    byes = len(seeded) - tables * players
    members: list[list[int]] = [[] for _ in range(tables)]
    for i, entrant in enumerate(seeded[byes:]):
        lap, pos = divmod(i, tables)
        members[pos if lap % 2 == 0 else tables - 1 - pos].append(entrant)
    return seeded[:byes], [tuple(table) for table in members]


def table_order(table: Table, played: PlayedRound, seed: int, level: int, number: int) -> list[int]:
    """The members of a played table, best first."""
    rank_sum = dict.fromkeys(table, 0)
    score = dict.fromkeys(table, 0)
    for result in played.results:
        if set(result.entrants) != set(table):
            continue
        for entrant, rank, points in zip(result.entrants, result.ranks, result.scores, strict=True):
            rank_sum[entrant] += rank
            score[entrant] += points
    return sorted(table, key=lambda e: (rank_sum[e], -score[e], derive_seed(seed, "tie", level, number, e)))


def seeding(ctx: RoundContext) -> tuple[int, ...] | None:
    """The entrants of the level about to be played, in seed order; None once the final is played."""
    seeded = ctx.pool
    for level, played in enumerate(ctx.history, start=1):
        if len(seeded) <= ctx.players:
            return None
        byes, tables = deal(seeded, ctx.players)
        orders = [table_order(t, played, ctx.seed, level, n) for n, t in enumerate(tables)]
        previous = {e: i for i, e in enumerate(seeded)}
        going_on = sorted(
            ((place, previous[e], e) for order in orders for place, e in enumerate(order[: ctx.advance])),
        )
        seeded = byes + tuple(e for _, _, e in going_on)
    return seeded


def _tables(ctx: RoundContext) -> list[Table] | None:
    seeded = seeding(ctx)
    if seeded is None:
        return None
    return deal(seeded, ctx.players)[1]


KNOCKOUT = Format(_tables, adaptive=True, ends_itself=True)
