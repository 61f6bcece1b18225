"""Swiss: each round seats entrants of similar standing together, avoiding repeated tables.

Entrants are ordered by conservative rating over the stage's completed rounds (seed order
in the first round). When the group does not divide into full tables, the lowest-standing
entrants with the fewest byes so far sit the round out. Tables are then filled from the top:
the best entrant not yet seated opens a table and takes the next-best entrants it has not met,
backtracking (within a fixed number of steps, so the result is deterministic) when that would
leave the last tables with nobody new to meet. When no such seating is found, each seat goes to
the next-best entrant who has met the fewest of those already at the table.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from .base import Format, RoundContext, Table, ranking


def _tables(ctx: RoundContext) -> list[Table]:
    order = [entrant for entrant, _ in ranking(ctx.pool, ctx.ratings)]
    byes = {e: sum(1 for past in ctx.history if e not in _seated(past.tables)) for e in ctx.pool}
    sitting_out = len(order) % ctx.players
    if sitting_out:
        # Fewest byes first, then lowest standing.
        by_need = sorted(range(len(order)), key=lambda i: (byes[order[i]], -i))
        out = {order[i] for i in by_need[:sitting_out]}
        order = [e for e in order if e not in out]
    met = Counter(
        pair for past in ctx.history for table in past.tables for pair in combinations(sorted(table), 2)
    )
    fresh = _fresh_tables(order, ctx.players, met)
    if fresh is not None:
        return fresh
    tables: list[Table] = []
    while order:
        table = [order.pop(0)]
        while len(table) < ctx.players:
            best = min(
                range(len(order)),
                key=lambda i: (sum(met[_pair(order[i], m)] for m in table), i),
            )
            table.append(order.pop(best))
        tables.append(tuple(table))
    return tables


_SEARCH_STEPS = 20_000
"""Tables tried at most looking for a round without a repeated meeting."""


def _fresh_tables(order: list[int], players: int, met: Counter[tuple[int, int]]) -> list[Table] | None:
    """Tables in which nobody meets anyone again, nearest in standing first; None if none is
    found within :data:`_SEARCH_STEPS`."""
    steps = 0

    def seat(left: list[int]) -> list[Table] | None:
        nonlocal steps
        if not left:
            return []
        head, rest = left[0], left[1:]
        for others in combinations(range(len(rest)), players - 1):
            steps += 1
            if steps > _SEARCH_STEPS:
                return None
            table = (head, *(rest[i] for i in others))
            if any(met[_pair(a, b)] for a, b in combinations(table, 2)):
                continue
            chosen = set(others)
            tail = seat([e for i, e in enumerate(rest) if i not in chosen])
            if tail is not None:
                return [table, *tail]
        return None

    return seat(order)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _seated(tables: tuple[Table, ...]) -> set[int]:
    return {e for table in tables for e in table}


SWISS = Format(_tables, adaptive=True)
