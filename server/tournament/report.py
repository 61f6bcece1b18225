"""A stored tournament's figures as plain data: standings with conduct, head-to-head, seats.

Shared by the command line and the web viewer; reads matches only through the store's API.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from server.store.repository import MatchResult, Store

from .conduct import conduct
from .formats.knockout import BracketTable, Tree
from .placing import knockout_tree, placings
from .progression import Plan
from .ratings import standings
from .statistics import head_to_head, seat_advantage
from .stored_plan import knockout_plan


def entrant_names(store: Store, tournament_id: int) -> list[str]:
    return [e.name for e in store.entrants(tournament_id)]


def in_stage(match_id: str, stage: str | None) -> bool:
    """Whether a match belongs to ``stage`` (every match when None): a stage's ids start with its name."""
    return stage is None or match_id.startswith(f"{stage}.")


def standing_rows(store: Store, tournament_id: int, stage: str | None = None) -> list[dict[str, Any]]:
    """The standings' JSON rows: every rating column, then the entrant's conduct. With ``stage``,
    over that stage's matches only, among the entrants who played it ([] when it has no match).
    A knockout's rows start with each entrant's placing and seed, and are in placing order."""
    names = entrant_names(store, tournament_id)
    results = store.results(tournament_id)
    rows = standings(names, [r for r in results if in_stage(r.match_id, stage)])
    if stage is not None:
        rows = [replace(row, rank=place) for place, row in enumerate((r for r in rows if r.matches), 1)]
    seats = (seat for seat in store.conduct(tournament_id) if in_stage(seat.match_id, stage))
    figures = dict(zip(names, conduct(len(names), seats), strict=True))
    found = [{**row.to_json(), **figures[row.name].to_json()} for row in rows]
    plan = _plan(store, tournament_id)
    if plan is None or stage not in (None, plan.stages[-1].name):
        return found
    if (tree := knockout_tree(plan, results)) is None:
        return found
    by_name = {row["name"]: row for row in found}
    return [
        {"placing": p.name, "seed": p.seed, **by_name[names[p.entrant]]}
        for p in placings(tree, len(names))
        if names[p.entrant] in by_name
    ]


def knockout_json(store: Store, tournament_id: int) -> dict[str, Any] | None:
    """A knockout's tree for drawing: every level, its tables in the drawing's order, each with
    its entrants best first (seed, matches won, total score, whether they go on; in the final,
    whether they won it), what
    settled the table (``ranks``, ``score`` or ``seeded_draw``) and its matches; tables not
    yet known are null. None
    when the tournament ends in no knockout, or its knockout has not begun."""
    names = entrant_names(store, tournament_id)
    results = store.results(tournament_id)
    plan = _plan(store, tournament_id)
    tree = None if plan is None else knockout_tree(plan, results)
    if tree is None:
        return None
    by_table: dict[frozenset[int], list[MatchResult]] = {}
    for result in results:
        by_table.setdefault(frozenset(result.entrants), []).append(result)
    levels: list[list[dict[str, Any] | None]] = []
    for level in range(1, len(tree.shape.slots) + 1):
        known = tree.levels[level - 1] if level <= len(tree.levels) else None
        levels.append(
            [
                None
                if known is None
                else _table_json(tree, known[n], by_table.get(frozenset(known[n].members), []), names)
                for n in tree.drawing_order(level)
            ]
        )
    final = len(tree.shape.slots)
    titles = [_level_title(final - level, tree.shape.slots[level - 1]) for level in range(1, final + 1)]
    return {"levels": [{"title": t, "tables": tables} for t, tables in zip(titles, levels, strict=True)]}


def _table_json(
    tree: Tree, table: BracketTable, played: list[MatchResult], names: list[str]
) -> dict[str, Any]:
    """One table: its entrants best first, and what settled who goes on (in the final: who wins)."""
    order = table.order or table.members
    through = 1 if len(tree.levels) == len(tree.shape.slots) and table in tree.levels[-1] else tree.advance
    rank_sum = {e: sum(r.ranks[r.entrants.index(e)] for r in played) for e in order}
    score = {e: sum(r.scores[r.entrants.index(e)] for r in played) for e in order}
    settled_by = None
    if table.order is not None and not table.bye:
        last_in, first_out = order[through - 1], order[through]
        settled_by = (
            "ranks"
            if rank_sum[last_in] != rank_sum[first_out]
            else "score"
            if score[last_in] != score[first_out]
            else "seeded_draw"
        )
    return {
        "bye": table.bye,
        "played": settled_by is not None,
        "settled_by": settled_by,
        "matches": [r.match_id for r in sorted(played, key=lambda r: r.index)],
        "entrants": [
            {
                "name": names[e],
                "seed": tree.seeds.index(e) + 1,
                "wins": sum(1 for r in played if r.ranks[r.entrants.index(e)] == 1),
                "score": score[e],
                "goes_on": table.order is not None and place < through,
            }
            for place, e in enumerate(order)
        ],
    }


def _level_title(levels_left: int, slots: int) -> str:
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(levels_left, f"Last {slots}")


def _plan(store: Store, tournament_id: int) -> Plan | None:
    """The tournament's plan when it ends in a knockout."""
    (tournament,) = (t for t in store.tournaments() if t.id == tournament_id)
    return knockout_plan(tournament.bracket_json)


def statistics_json(store: Store, tournament_id: int) -> dict[str, Any]:
    """The head-to-head matrix and the seat tables."""
    names = entrant_names(store, tournament_id)
    results = store.results(tournament_id)
    return {
        "entrants": names,
        "head_to_head": [[cell.to_json() for cell in row] for row in head_to_head(names, results)],
        "seat_advantage": [table.to_json() for table in seat_advantage(results)],
    }


def pairing_text(cell: dict[str, Any]) -> str:
    """``0.75 (3/4)``: the share, then matches ahead of all shared; ``-`` for no shared match."""
    if not cell["matches"]:
        return "-"
    return f"{cell['share']:.2f} ({cell['ahead']}/{cell['matches']})"


def seat_verdict(figures: dict[str, Any]) -> str:
    """One sentence on the chi-square test of an even share of wins."""
    if figures["p_value"] is None:
        return "too few decided matches to test for a seat advantage (fewer than 5 wins expected per seat)"
    outcome = (
        "a seat advantage: the wins are not evenly shared"
        if figures["significant"]
        else ("no significant seat advantage")
    )
    return f"chi-square {figures['chi_square']:.2f}, p = {figures['p_value']:.4f}: {outcome}"
