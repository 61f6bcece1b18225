"""Formats and stages as the progression hands them out: who meets whom, in which rounds, and
that a schedule formed from results comes out the same when it is formed again from stored
results (a resumed run)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from benchmarks.simulated_entrants import outcome, play
from server.store.repository import MatchResult
from server.tournament.formats.knockout import levels
from server.tournament.progression import Plan, Progression, StageRules, StopRule
from server.tournament.schedule import ScheduledMatch, make_schedule


def plan(
    entrants: int, players: int, *stages: StageRules, candidates: frozenset[int] = frozenset(), seed: int = 7
) -> Plan:
    return Plan(
        names=tuple(f"e{i}" for i in range(entrants)),
        players=players,
        seed=seed,
        duplicate=True,
        max_tables=500,
        candidates=candidates,
        stages=stages,
    )


def tables_by_round(matches: list[ScheduledMatch]) -> dict[int, set[frozenset[int]]]:
    found: dict[int, set[frozenset[int]]] = {}
    for match in matches:
        found.setdefault(match.round, set()).add(frozenset(match.seats))
    return found


def test_a_round_robin_is_one_batch_equal_to_its_schedule() -> None:
    progression = Progression(
        Plan(tuple("abcdefg"), 3, 5, False, 10, frozenset(), (StageRules("", "round-robin", 4),))
    )
    batch = progression.next_batch({})
    assert batch == make_schedule(7, 3, rounds=4, seed=5, max_tables=10)


def test_in_a_gauntlet_every_table_has_one_candidate_and_each_meets_the_whole_field() -> None:
    _, matches, _ = play(
        plan(5, 2, StageRules("", "gauntlet", 3), candidates=frozenset({1})), [0] * 5, seed=1
    )
    for round_, tables in tables_by_round(matches).items():
        assert tables == {frozenset({1, e}) for e in (0, 2, 3, 4)}, round_
    assert all(match.seats.count(1) == 1 for match in matches)


def test_a_gauntlet_of_three_a_table_fills_tables_from_the_field_only() -> None:
    _, matches, _ = play(
        plan(6, 3, StageRules("", "gauntlet", 1), candidates=frozenset({0, 5})), [0] * 6, seed=1
    )
    tables = tables_by_round(matches)[1]
    field = (1, 2, 3, 4)
    assert tables == {frozenset({c, *pair}) for c in (0, 5) for pair in combinations(field, 2)}


def matchings(left: frozenset[int]) -> list[list[frozenset[int]]]:
    """Every way to seat ``left`` two to a table."""
    if not left:
        return [[]]
    head = min(left)
    return [
        [frozenset({head, other}), *rest]
        for other in sorted(left - {head})
        for rest in matchings(left - {head, other})
    ]


def test_swiss_seats_the_leaders_together_and_avoids_repeated_tables() -> None:
    strengths = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0]  # e5 the strongest: far beyond the noise
    _, matches, _ = play(plan(6, 2, StageRules("", "swiss", 5)), strengths, seed=3)
    rounds = tables_by_round(matches)
    assert rounds[1] == {frozenset({0, 1}), frozenset({2, 3}), frozenset({4, 5})}  # seed order
    # After round 1 the three winners lead (equal, so in seed order): the first two meet, the
    # third meets the best of the rest.
    assert rounds[2] == {frozenset({1, 3}), frozenset({5, 0}), frozenset({2, 4})}
    for round_ in range(2, 6):
        earlier = {table for r in range(1, round_) for table in rounds[r]}
        possible = any(not set(seating) & earlier for seating in matchings(frozenset(range(6))))
        assert possible == (not rounds[round_] & earlier), round_


def test_swiss_gives_byes_to_whoever_has_had_fewest() -> None:
    _, matches, _ = play(plan(5, 2, StageRules("", "swiss", 5)), [0.0, 1, 2, 3, 4], seed=4)
    sat_out = [
        ({0, 1, 2, 3, 4} - {e for t in tables for e in t}) for tables in tables_by_round(matches).values()
    ]
    assert all(len(out) == 1 for out in sat_out)
    assert sorted(e for out in sat_out for e in out) == [0, 1, 2, 3, 4]


def test_knockout_levels_byes_and_a_final_of_the_strongest() -> None:
    assert levels(5, 2, 1) == [5, 4, 2]
    assert levels(16, 4, 2) == [16, 8, 4]
    with pytest.raises(ValueError, match="5 entrants at tables of 4 with 2 going on cannot fill"):
        levels(5, 4, 2)
    strengths = [50.0, 40.0, 30.0, 20.0, 10.0]  # seed order is strength order
    _, matches, _ = play(plan(5, 2, StageRules("", "knockout", 1, advance=1)), strengths, seed=2)
    rounds = tables_by_round(matches)
    assert rounds[1] == {frozenset({3, 4})}  # seeds 0, 1 and 2 have a bye
    assert rounds[2] == {frozenset({0, 3}), frozenset({1, 2})}  # no bye after the first level
    assert rounds[3] == {frozenset({0, 1})}
    assert [m.match_id for m in matches][-2:] == ["r3-t000-s0", "r3-t000-s1"]


def test_a_knockout_plays_each_table_rounds_times_in_every_rotation() -> None:
    _, matches, _ = play(plan(4, 2, StageRules("", "knockout", 3, advance=1)), [4.0, 3, 2, 1], seed=2)
    first = [m for m in matches if m.round == 1 and m.table == 0]
    assert [m.seats for m in first] == [(0, 3), (3, 0)] * 3
    assert len({m.seed for m in first}) == 3  # duplicate: each repeat of the two rotations shares dice


def test_knockout_ties_go_to_score_then_to_a_seeded_draw() -> None:
    def tied(match: ScheduledMatch) -> MatchResult:
        return MatchResult(match.index, match.match_id, match.seats, (5, 5), (1, 1), (0, 0), (False, False))

    winners = set()
    for seed in range(12):
        progression = Progression(plan(4, 2, StageRules("", "knockout", 1, advance=1), seed=seed))
        results: dict[int, MatchResult] = {}
        while (batch := progression.next_batch(results)) is not None:
            results.update({m.index: tied(m) for m in batch})
        final = max(results.values(), key=lambda r: r.index)
        winners.add(frozenset(final.entrants))
    assert len(winners) > 1, "ties always went the same way: the draw does not depend on the seed"


def test_two_stages_send_each_groups_best_to_the_final() -> None:
    strengths = [60.0, 50.0, 40.0, 30.0, 20.0, 10.0]
    stages = (
        StageRules("groups", "round-robin", 1, groups=2, advance=1),
        StageRules("final", "round-robin", 2),
    )
    _, matches, _ = play(plan(6, 2, *stages), strengths, seed=5)
    groups = [m for m in matches if m.match_id.startswith("groups.")]
    final = [m for m in matches if m.match_id.startswith("final.")]
    assert len(groups) == 12 and len(final) == 4 and matches == groups + final
    # Snake order: {0, 3, 4} and {1, 2, 5}; their best, 0 and 1, play the final.
    assert {frozenset(m.seats) for m in groups} == {
        frozenset(p) for g in ((0, 3, 4), (1, 2, 5)) for p in combinations(g, 2)
    }
    assert {frozenset(m.seats) for m in final} == {frozenset({0, 1})}
    assert final[0].match_id == "final.r1-t000-s0" and [m.index for m in matches] == list(range(16))


@pytest.mark.parametrize(
    "stages",
    [
        (StageRules("", "swiss", 4),),
        (StageRules("", "knockout", 2, advance=1),),
        (StageRules("", "knockout", 1, advance=1, reseed=True),),
        (StageRules("", "round-robin", 1, until=StopRule(0.9, 8)),),
        (StageRules("a", "swiss", 2, groups=2, advance=2), StageRules("b", "knockout", 1, advance=1)),
    ],
)
def test_a_progression_formed_again_from_stored_results_hands_out_the_same_matches(
    stages: tuple[StageRules, ...],
) -> None:
    """A resumed run: a fresh progression over the results stored so far (a round only partly
    played included) hands out the matches already played, then the same ones as before."""
    the_plan = plan(8, 2, *stages)
    strengths = [0.0, 0.4, 0.8, 1.2, 1.6, 2.0, 2.4, 2.8]
    _, whole, _ = play(the_plan, strengths, seed=9)
    rng = random.Random(9)
    results = {m.index: outcome(m, strengths, rng) for m in whole}
    for cut in (1, len(whole) // 3, len(whole) - 1):
        stored = {i: r for i, r in results.items() if i < cut}
        progression = Progression(the_plan)
        again: list[ScheduledMatch] = []
        while (batch := progression.next_batch(results)) is not None:
            again += batch
            assert all(m.index in results for m in batch)
            if any(m.index not in stored for m in batch):
                stored.update({m.index: results[m.index] for m in batch})
        assert again == whole


def test_the_stopping_rule_reports_the_least_settled_pair_and_why_it_stopped() -> None:
    progression, matches, _ = play(
        plan(3, 2, StageRules("", "round-robin", 2, until=StopRule(0.95, 30))), [0.0, 3.0, 6.0], seed=1
    )
    assert progression.status.startswith("least settled: ")
    (verdict,) = progression.verdicts
    rounds = max(m.round for m in matches)
    assert verdict.startswith(f"settled after {rounds} rounds") and 2 <= rounds < 30


def test_entrants_of_equal_strength_play_to_max_rounds() -> None:
    progression, matches, _ = play(
        plan(3, 2, StageRules("", "round-robin", 1, until=StopRule(0.99, 6))), [0.0, 0.0, 0.0], seed=1
    )
    assert max(m.round for m in matches) == 6
    assert progression.verdicts[0].startswith("max_rounds reached after 6 rounds")
