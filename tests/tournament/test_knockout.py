"""The knockout's bracket: byes only in the first level and to the top seeds, a fixed tree (or one
seeded again with ``reseed``), every table settled by the tie rule, and each entrant's placing."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from benchmarks.simulated_entrants import outcome, play
from server.store.repository import MatchResult
from server.tournament.formats.knockout import shape
from server.tournament.placing import STILL_IN, knockout_tree, placings
from server.tournament.progression import Plan, Progression, StageRules
from server.tournament.schedule import ScheduledMatch

from .test_formats import plan, tables_by_round

Outcome = Callable[[ScheduledMatch], MatchResult]


def knockout(
    entrants: int, players: int = 2, *, advance: int = 1, reseed: bool = False, seed: int = 7
) -> Plan:
    return plan(entrants, players, StageRules("", "knockout", 1, advance=advance, reseed=reseed), seed=seed)


def played(the_plan: Plan, decide: Outcome) -> tuple[list[ScheduledMatch], list[MatchResult]]:
    """Every match of ``the_plan`` with results from ``decide``."""
    progression = Progression(the_plan)
    results: dict[int, MatchResult] = {}
    matches: list[ScheduledMatch] = []
    while (batch := progression.next_batch(results)) is not None:
        results.update({m.index: decide(m) for m in batch})
        matches += batch
    return matches, [results[m.index] for m in matches]


def won_by(winner: Callable[[tuple[int, ...]], int]) -> Outcome:
    """Results in which ``winner(table)`` finishes first, 10 points ahead."""

    def decide(match: ScheduledMatch) -> MatchResult:
        first = winner(match.seats)
        ranks = tuple(1 if e == first else 2 for e in match.seats)
        scores = tuple(20 if e == first else 10 for e in match.seats)
        n = len(match.seats)
        return MatchResult(match.index, match.match_id, match.seats, scores, ranks, (0,) * n, (False,) * n)

    return decide


favourites = won_by(min)
"""The better seed always wins."""


def tied(points: int) -> Outcome:
    """Every match shared: first place and ``points`` each."""

    def decide(match: ScheduledMatch) -> MatchResult:
        n = len(match.seats)
        return MatchResult(
            match.index, match.match_id, match.seats, (points,) * n, (1,) * n, (0,) * n, (False,) * n
        )

    return decide


@pytest.mark.parametrize(("entrants", "byes", "level_sizes"), [(5, 3, 3), (9, 7, 4), (17, 15, 5)])
def test_byes_go_to_the_top_seeds_in_the_first_level_only(entrants: int, byes: int, level_sizes: int) -> None:
    assert shape(entrants, 2, 1).byes == byes
    matches, _ = played(knockout(entrants), favourites)
    rounds = tables_by_round(matches)
    assert len(rounds) == level_sizes
    # The first level: the entrants below the byes, in whole tables; the top seeds wait.
    assert {e for table in rounds[1] for e in table} == set(range(byes, entrants))
    # Seed 1 plays every level after it, and every later level is full.
    for level in range(2, level_sizes + 1):
        assert any(0 in table for table in rounds[level]), level
        assert len(rounds[level]) == 2 ** (level_sizes - level), level


def test_tables_of_three_have_byes_of_whole_tables() -> None:
    matches, _ = played(knockout(7, 3), favourites)
    rounds = tables_by_round(matches)
    # Seed 1 alone at a bye table; the others in snake order.
    assert rounds[1] == {frozenset({1, 4, 5}), frozenset({2, 3, 6})}
    assert rounds[2] == {frozenset({0, 1, 2})}


def test_a_bracket_no_byes_can_fill_is_refused_with_counts_that_fit() -> None:
    with pytest.raises(ValueError, match=r"6 entrants at tables of 3 .*\(e\.g\. 3, 5, 7, 9\)"):
        shape(6, 3, 1)


def test_the_tree_is_fixed_as_a_standard_bracket() -> None:
    def upset(table: tuple[int, ...]) -> int:
        return 15 if set(table) == {0, 15} else min(table)  # seed 16 beats seed 1

    matches, _ = played(knockout(16), won_by(upset))
    rounds = tables_by_round(matches)
    assert rounds[1] == {frozenset({s, 15 - s}) for s in range(8)}  # 1 v 16, 2 v 15, ..., 8 v 9
    # Winners meet as the bracket says: 16 (who beat 1) meets the winner of 8 v 9, not seed 8's
    # place taken by a new seeding.
    assert rounds[2] == {frozenset({15, 7}), frozenset({1, 6}), frozenset({2, 5}), frozenset({3, 4})}
    assert rounds[3] == {frozenset({7, 3}), frozenset({1, 2})}
    assert rounds[4] == {frozenset({1, 3})}


@pytest.mark.parametrize("seed", range(6))
def test_seeds_1_and_2_can_meet_only_in_the_final(seed: int) -> None:
    strengths = [0.0] * 12  # anyone may win any table
    _, matches, _ = play(knockout(12, seed=seed), strengths, seed=seed)
    last = max(m.round for m in matches)
    assert all(m.round == last for m in matches if {0, 1} <= set(m.seats))


def test_reseed_seeds_those_who_go_on_again_after_every_level() -> None:
    def upset(table: tuple[int, ...]) -> int:
        return 15 if set(table) == {0, 15} else min(table)

    matches, _ = played(knockout(16, reseed=True), won_by(upset))
    rounds = tables_by_round(matches)
    # All won their table: seeded again by their seed in the level, 16 last.
    assert rounds[2] == {frozenset({1, 15}), frozenset({2, 7}), frozenset({3, 6}), frozenset({4, 5})}


def test_a_level_final_is_settled_by_the_tie_rule_the_same_way_every_time() -> None:
    """Every match shared, on equal scores (a final 1-1, 162-162): the seeded draw settles every
    table, the final included, and the same bracket and seed settle it the same way."""
    champions = set()
    for seed in range(10):
        the_plan = knockout(5, seed=seed)
        _, results = played(the_plan, tied(81))
        tree = knockout_tree(the_plan, results)
        assert tree is not None and tree.finished
        found = placings(tree, 5)
        assert [p.name for p in found].count("champion") == 1
        assert STILL_IN not in {p.name for p in found}
        again = knockout_tree(the_plan, played(the_plan, tied(81))[1])
        assert again is not None and placings(again, 5) == found
        champions.add(found[0].entrant)
    assert len(champions) > 1, "the draw does not depend on the seed"


def test_a_tie_on_ranks_goes_to_the_higher_total_score() -> None:
    def split(match: ScheduledMatch) -> MatchResult:
        # Each wins one match of the pair, seed 2 by more.
        first = match.seats[0]
        ranks = tuple(1 if e == first else 2 for e in match.seats)
        scores = tuple((30 if e == 1 else 20) if e == first else 10 for e in match.seats)
        return MatchResult(match.index, match.match_id, match.seats, scores, ranks, (0, 0), (False, False))

    the_plan = knockout(2)
    tree = knockout_tree(the_plan, played(the_plan, split)[1])
    assert tree is not None
    assert [p.entrant for p in placings(tree, 2)] == [1, 0]


def test_placings_name_one_champion_then_how_far_each_went() -> None:
    the_plan = knockout(9)
    _, results = played(the_plan, favourites)
    tree = knockout_tree(the_plan, results)
    assert tree is not None
    found = [(p.name, p.seed) for p in placings(tree, 9)]
    assert found == [
        ("champion", 1),
        ("finalist", 2),
        ("semi-finalist", 3),
        ("semi-finalist", 4),
        *(("quarter-finalist", s) for s in range(5, 9)),
        ("last 9", 9),
    ]


def test_placings_while_the_knockout_goes_on() -> None:
    the_plan = knockout(8)
    matches, results = played(the_plan, favourites)
    first_level = [r for m, r in zip(matches, results, strict=True) if m.round == 1]
    tree = knockout_tree(the_plan, first_level)
    assert tree is not None and not tree.finished
    found = {p.seed: p.name for p in placings(tree, 8)}
    assert found == {**dict.fromkeys(range(1, 5), STILL_IN), **dict.fromkeys(range(5, 9), "quarter-finalist")}


def test_results_of_another_schedule_give_no_tree() -> None:
    the_plan = knockout(8)
    _, results = played(knockout(8, reseed=True), won_by(lambda t: 7 if 7 in t else min(t)))
    assert knockout_tree(the_plan, results) is None


def test_a_knockout_after_groups_places_who_played_it() -> None:
    stages = (
        StageRules("groups", "round-robin", 1, groups=2, advance=2),
        StageRules("final", "knockout", 1, advance=1),
    )
    the_plan = plan(6, 2, *stages)
    rng = random.Random(3)
    strengths = [6.0, 5, 4, 3, 2, 1]
    _, results = played(the_plan, lambda m: outcome(m, strengths, rng))
    tree = knockout_tree(the_plan, results)
    assert tree is not None and tree.finished
    found = placings(tree, 6)
    assert [p.name for p in found].count("champion") == 1
    assert [p.name for p in found].count("out before the knockout") == 2
    assert found[-1].seed is None
