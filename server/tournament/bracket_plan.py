"""Checks of a bracket's formats and stages that need the whole plan: who is in each stage,
whether every table and final can be filled, which settings each format takes, and how many
matches the schedule can have at most."""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from server.seeds import derive_seed

from .bracket_errors import Loc
from .design import balanced_design
from .formats.knockout import levels
from .progression import Plan, StageRules
from .schedule import schedule_size


@dataclass(frozen=True, slots=True)
class PlanProblem:
    message: str
    loc: Loc


def plan_problem(plan: Plan, staged: bool) -> PlanProblem | None:
    """The first problem of ``plan`` (``staged``: its stages come from ``stages:``), or None."""
    entrants = len(plan.names)
    players = plan.players
    for index, rules in enumerate(plan.stages):
        at: Loc = ("stages", index) if staged else ()
        last = index + 1 == len(plan.stages)
        problem = _stage_problem(plan, rules, entrants, first=index == 0, last=last)
        if problem is not None:
            return PlanProblem(problem[0], (*at, *problem[1]))
        if not last:
            assert rules.advance is not None
            entrants = rules.advance * rules.groups
            if entrants < players:
                message = (
                    f"{entrants} entrants go on to the next stage, too few for a table of {players}; "
                    "raise advance"
                )
                return PlanProblem(message, (*at, "advance"))
    if plan.candidates and plan.stages[0].format != "gauntlet":
        return PlanProblem("candidate: true is for the gauntlet format", ("format",))
    return None


def _stage_problem(
    plan: Plan, rules: StageRules, entrants: int, *, first: bool, last: bool
) -> tuple[str, Loc] | None:
    players = plan.players
    smallest = entrants // rules.groups
    if smallest < players:
        return (
            f"{entrants} entrants in {rules.groups} groups leave {smallest} in a group, "
            f"fewer than a table of {players}",
            ("groups",),
        )
    if rules.sprt is not None:
        if rules.format != "gauntlet" or len(plan.candidates) != 1 or entrants != 2:
            return "sprt is for a gauntlet of exactly two entrants, one of them candidate: true", ("sprt",)
        if players != 2 or not plan.duplicate:
            return (
                "sprt compares pairs of matches with one chance seed: needs players: 2 and duplicate: true",
                ("sprt",),
            )
        if rules.until is not None:
            return "give either sprt or until, not both", ("until",)
    if rules.settle is not None and rules.until is None:
        return "settle needs until (the stopping rule it narrows)", ("settle",)
    if rules.reseed and rules.format != "knockout":
        return "reseed is for a knockout (it seeds those who go on again after every level)", ("reseed",)
    if rules.format == "knockout":
        if not last:
            return "a knockout ends the tournament: make it the last stage", ("format",)
        if rules.groups > 1:
            return "a knockout is played in one group", ("groups",)
        if rules.until is not None:
            return "a knockout ends by itself: until does not apply", ("until",)
        advance = rules.advance or 1
        if advance >= players:
            return f"advance must be below players ({players}) in a knockout, got {advance}", ("advance",)
        try:
            levels(entrants, players, advance)
        except ValueError as exc:
            return str(exc), ("advance",)
        return None
    if rules.format == "gauntlet":
        if not first:
            return "a gauntlet is played by the bracket's entrants: make it the first stage", ("format",)
        if rules.groups > 1:
            return "a gauntlet is played in one group", ("groups",)
        if not plan.candidates:
            return "a gauntlet needs at least one entrant with candidate: true", ("format",)
        field = entrants - len(plan.candidates)
        if field < players - 1:
            return (
                f"the field (entrants without candidate: true) has {field}, too few to fill "
                f"a table of {players} with a candidate",
                ("format",),
            )
    if not last and rules.advance is None:
        return "missing required field 'advance' (how many of each group go on)", ()
    if last and rules.advance is not None:
        return "advance is for a stage that others follow (or a knockout)", ("advance",)
    if rules.advance is not None and rules.advance > smallest:
        return f"advance ({rules.advance}) exceeds the smallest group ({smallest} entrants)", ("advance",)
    return None


def plan_size(plan: Plan) -> tuple[int, int, int]:
    """(rounds, matches per round, matches) at most over all stages; the rounds and matches per
    round are those of the largest stage, for the message."""
    entrants = len(plan.names)
    total = 0
    largest = (0, 0, 0)
    for index, rules in enumerate(plan.stages):
        rounds, per_round = _stage_size(plan, rules, entrants)
        total += rounds * per_round
        largest = max(largest, (rounds * per_round, rounds, per_round))
        if index + 1 < len(plan.stages):
            entrants = (rules.advance or 1) * rules.groups
    return largest[1], largest[2], total


def _stage_size(plan: Plan, rules: StageRules, entrants: int) -> tuple[int, int]:
    players, seed = plan.players, plan.seed
    if rules.format == "knockout":
        counts = levels(entrants, players, rules.advance or 1)
        return len(counts), max(count // players for count in counts) * players * players * rules.rounds
    if rules.format == "gauntlet":
        field = entrants - len(plan.candidates)
        size = players - 1
        if size in (1, field) or comb(field, size) <= plan.max_tables:
            companions = comb(field, size)
        else:
            companions = len(balanced_design(field, size, seed=derive_seed(seed, "design")))
        return rules.most_rounds, len(plan.candidates) * companions * players
    per_group = entrants // rules.groups + (entrants % rules.groups > 0)
    if rules.format == "swiss":
        tables = per_group // players
        return rules.most_rounds, rules.groups * tables * players
    per_round = schedule_size(per_group, players, rounds=1, seed=seed, max_tables=plan.max_tables)
    return rules.most_rounds, rules.groups * per_round
