"""A knockout's placings: how far each entrant went, which the standings give first, since a
knockout is decided by its tree, not by ratings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from server.store.repository import MatchResult

from .formats.knockout import Tree
from .progression import Plan, Progression

STILL_IN = "still in"
"""The placing of an entrant whose knockout is still going on for it."""


@dataclass(frozen=True, slots=True)
class Placing:
    """How far one entrant went in the knockout."""

    entrant: int
    name: str
    """``champion``, ``finalist``, ``semi-finalist``, ``quarter-finalist``, ``last N``, or
    :data:`STILL_IN`; ``out before the knockout`` for entrants of earlier stages only."""
    seed: int | None
    """1-based seed in the knockout (None when the entrant did not play it)."""
    order: tuple[int, ...]
    """The standings order: furthest first, then the final's order, then seed."""


def knockout_tree(plan: Plan, results: Iterable[MatchResult]) -> Tree | None:
    """The knockout of ``plan`` as the stored ``results`` settle it; None when ``plan`` ends in
    no knockout, its knockout has not begun, or the results are of another schedule."""
    if plan.stages[-1].format != "knockout":
        return None
    stored = {r.index: r for r in results}
    progression = Progression(plan)
    batch = progression.next_batch({})
    while batch is not None:
        played = [m for m in batch if m.index in stored]
        if any(stored[m.index].entrants != m.seats for m in played):
            return None
        if len(played) < len(batch):
            break
        batch = progression.next_batch(stored)
    return progression.knockout()


def placings(tree: Tree, entrants: int) -> list[Placing]:
    """Every one of ``entrants``' placing, in standings order: exactly one champion once the
    final is played."""
    final = len(tree.shape.slots)
    counts = [len(tree.seeds), *tree.shape.slots[1:]]
    found: dict[int, Placing] = {}
    for level, tables in enumerate(tree.levels, start=1):
        for table in tables:
            for place, entrant in enumerate(table.order or table.members):
                if table.order is None or (place < tree.advance and level < final):
                    name, out = STILL_IN, 0
                elif level == final:
                    name, out = ("champion" if place == 0 else "finalist"), place
                else:
                    name, out = _out_at(final - level, counts[level - 1]), 1
                seed = tree.seeds.index(entrant) + 1
                found[entrant] = Placing(entrant, name, seed, (-level, out, seed))
    for entrant in range(entrants):
        found.setdefault(entrant, Placing(entrant, "out before the knockout", None, (1, 0, entrant)))
    return sorted(found.values(), key=lambda p: p.order)


def _out_at(levels_left: int, entrants: int) -> str:
    """The placing of those who go out ``levels_left`` levels before the final, among ``entrants``."""
    if levels_left == 1:
        return "semi-finalist"
    if levels_left == 2:
        return "quarter-finalist"
    return f"last {entrants}"
