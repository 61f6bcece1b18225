"""Gauntlet: each candidate plays tables filled from the field (the entrants not marked
``candidate``), so the field never plays without a candidate.

With two players a table, every round each candidate meets every field entrant; with more,
a candidate's companions are every ``players - 1``-subset of the field, or a balanced design
of them when there are more than ``max_tables`` such subsets (as a round robin's tables).
"""

from __future__ import annotations

from itertools import combinations

from ..schedule import round_tables
from .base import Format, RoundContext, Table


def field_of(ctx: RoundContext) -> tuple[int, ...]:
    return tuple(e for e in ctx.pool if e not in ctx.candidates)


def _tables(ctx: RoundContext) -> list[Table]:
    field = field_of(ctx)
    size = ctx.players - 1
    if size == 1 or size == len(field):
        companions = list(combinations(range(len(field)), size))
    else:
        companions = round_tables(len(field), size, seed=ctx.seed, round=ctx.round, max_tables=ctx.max_tables)
    return [
        (candidate, *(field[i] for i in others))
        for candidate in ctx.pool
        if candidate in ctx.candidates
        for others in companions
    ]


GAUNTLET = Format(_tables, adaptive=False)
