"""Schedules: table sets (every subset, or a balanced design), seat rotations, seeds, order, ids.

The balance of designs is checked on the tables actually scheduled, for every entrant count
from ``players`` to 40 and 2 to 5 players (``max_tables=1`` forces the design), and for 100
entrants at 4 players.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import combinations
from math import comb
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.seeds import derive_seed
from server.tournament.design import balanced_design
from server.tournament.schedule import (
    ScheduledMatch,
    make_schedule,
    round_tables,
)

Table = tuple[int, ...]


def lower_bound(n: int, k: int) -> int:
    """Fewest tables in which every pair can meet."""
    return -(-comb(n, 2) // comb(k, 2))


def assert_balanced(n: int, k: int, tables: Sequence[Table]) -> None:
    """Every pair meets at least once and equally often ±1; entrants play equally often ±1."""
    assert all(len(t) == k and len(set(t)) == k and all(0 <= e < n for e in t) for t in tables)
    meetings = Counter(pair for t in tables for pair in combinations(sorted(t), 2))
    counts = [meetings[pair] for pair in combinations(range(n), 2)]
    assert min(counts) >= 1, "a pair never meets"
    assert max(counts) - min(counts) <= 1, (min(counts), max(counts))
    plays = Counter(e for t in tables for e in t)
    assert max(plays[e] for e in range(n)) - min(plays[e] for e in range(n)) <= 1
    assert len(tables) >= lower_bound(n, k)


def tables_by_round(schedule: Sequence[ScheduledMatch]) -> dict[int, list[Table]]:
    """Each round's tables as scheduled (rotation 0 seats a table in its natural order)."""
    rounds: dict[int, list[Table]] = defaultdict(list)
    for match in schedule:
        if match.rotation == 0:
            assert match.table == len(rounds[match.round])
            rounds[match.round].append(match.seats)
    return dict(rounds)


def check_schedule(
    schedule: Sequence[ScheduledMatch],
    n: int,
    k: int,
    *,
    rounds: int,
    seed: int,
    duplicate: bool,
    max_tables: int,
) -> None:
    """Every invariant of a round-robin schedule."""
    # Order, indices and ids.
    assert [m.index for m in schedule] == list(range(len(schedule)))
    keys = [(m.round, m.table, m.rotation) for m in schedule]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    ids = [m.match_id for m in schedule]
    assert len(set(ids)) == len(ids)
    assert sorted(ids) == ids
    # Rounds repeat the same number of tables, each played in every rotation.
    by_round = tables_by_round(schedule)
    assert sorted(by_round) == list(range(1, rounds + 1))
    sizes = {len(tables) for tables in by_round.values()}
    assert len(sizes) == 1
    assert len(schedule) == rounds * sizes.pop() * k
    for tables in by_round.values():
        if comb(n, k) <= max_tables:
            assert tables == list(combinations(range(n), k))
        else:
            assert_balanced(n, k, tables)
    # Seat rotations: rotation r seats table[(i + r) % k] in seat i.
    by_table: dict[tuple[int, int], list[ScheduledMatch]] = defaultdict(list)
    for m in schedule:
        by_table[(m.round, m.table)].append(m)
    for (round_, table), matches in by_table.items():
        assert [m.rotation for m in matches] == list(range(k))
        members = matches[0].seats
        assert list(members) == sorted(members)
        for m in matches:
            assert m.seats == tuple(members[(i + m.rotation) % k] for i in range(k))
        for seat in range(k):
            assert sorted(m.seats[seat] for m in matches) == list(members)
        # Seeds.
        if duplicate:
            assert {m.seed for m in matches} == {derive_seed(seed, round_, table)}
        else:
            assert [m.seed for m in matches] == [derive_seed(seed, round_, table, r) for r in range(k)]
    seeds = [m.seed for m in schedule]
    if duplicate:
        assert len(set(seeds)) == len(by_table)
    else:
        assert len(set(seeds)) == len(seeds)


# --- every subset --------------------------------------------------------------------------------


def test_few_subsets_are_all_played_in_lexicographic_order() -> None:
    schedule = make_schedule(6, 3, rounds=2, seed=7)
    assert len(schedule) == 2 * comb(6, 3) * 3
    by_round = tables_by_round(schedule)
    assert by_round[1] == by_round[2] == list(combinations(range(6), 3))
    check_schedule(schedule, 6, 3, rounds=2, seed=7, duplicate=False, max_tables=500)


def test_max_tables_chooses_between_every_subset_and_the_design() -> None:
    assert round_tables(7, 3, seed=1, round=1, max_tables=35) == list(combinations(range(7), 3))
    design = round_tables(7, 3, seed=1, round=1, max_tables=34)
    assert_balanced(7, 3, design)
    assert len(design) == 7  # the Fano plane: every pair exactly once


# --- balanced designs ----------------------------------------------------------------------------

DESIGN_CASES = [(n, k) for k in range(2, 6) for n in range(k, 41)]


@pytest.mark.parametrize(("n", "k"), DESIGN_CASES, ids=[f"n{n}-k{k}" for n, k in DESIGN_CASES])
def test_design_is_balanced(n: int, k: int) -> None:
    tables = round_tables(n, k, seed=2024, round=1, max_tables=1)
    assert_balanced(n, k, tables)
    if n >= 20:  # close to the bound: the greedy cover alone has up to ~30 % more tables
        assert len(tables) <= 1.3 * lower_bound(n, k)


def test_design_for_100_entrants_at_4_players() -> None:
    schedule = make_schedule(100, 4, rounds=1, seed=11)  # C(100, 4) > max_tables=500
    tables = tables_by_round(schedule)[1]
    assert_balanced(100, 4, tables)
    assert len(tables) <= 1.12 * lower_bound(100, 4)


@pytest.mark.parametrize(("n", "k", "size"), [(7, 3, 7), (9, 3, 12), (13, 4, 13), (13, 3, 26), (16, 4, 20)])
def test_design_finds_exact_designs_when_small(n: int, k: int, size: int) -> None:
    """Where every pair can meet exactly once (a Steiner system), the search finds it."""
    for seed in range(3):
        tables = round_tables(n, k, seed=seed, round=1, max_tables=1)
        assert len(tables) == size == lower_bound(n, k)
        assert_balanced(n, k, tables)


@pytest.mark.parametrize("n", [4, 5, 6, 9])
def test_design_with_one_player_less_than_entrants(n: int) -> None:
    """Tables leave out one entrant each: n - 1 tables, the fewest that balance."""
    tables = round_tables(n, n - 1, seed=3, round=1, max_tables=1)
    assert len(tables) == n - 1
    assert_balanced(n, n - 1, tables)


def test_two_players_play_every_pair_once() -> None:
    tables = round_tables(30, 2, seed=5, round=1, max_tables=10)
    assert sorted(tables) == list(combinations(range(30), 2))


def test_each_round_relabels_the_design() -> None:
    """Rounds are equally balanced, but the pairs that meet an extra time differ."""
    schedule = make_schedule(20, 4, rounds=3, seed=9, max_tables=100)
    check_schedule(schedule, 20, 4, rounds=3, seed=9, duplicate=False, max_tables=100)
    by_round = tables_by_round(schedule)
    extra = []
    for tables in by_round.values():
        meetings = Counter(pair for t in tables for pair in combinations(t, 2))
        extra.append({pair for pair, count in meetings.items() if count == max(meetings.values())})
    assert extra[0] != extra[1] != extra[2]
    assert len(by_round[1]) == len(by_round[2]) == len(by_round[3])


# --- seats, seeds, ids, order ----------------------------------------------------------------


@pytest.mark.parametrize("duplicate", [False, True])
@pytest.mark.parametrize(("n", "k", "max_tables"), [(6, 3, 500), (12, 4, 10), (9, 5, 20)])
def test_schedule_invariants(n: int, k: int, max_tables: int, duplicate: bool) -> None:
    schedule = make_schedule(n, k, rounds=2, seed=42, duplicate=duplicate, max_tables=max_tables)
    check_schedule(schedule, n, k, rounds=2, seed=42, duplicate=duplicate, max_tables=max_tables)


def test_duplicate_shares_seeds_but_not_seats() -> None:
    plain = make_schedule(8, 4, rounds=2, seed=5, max_tables=20)
    dup = make_schedule(8, 4, rounds=2, seed=5, max_tables=20, duplicate=True)
    assert [m.seats for m in plain] == [m.seats for m in dup]
    assert [m.match_id for m in plain] == [m.match_id for m in dup]
    assert all(m.seed == derive_seed(5, m.round, m.table) for m in dup)
    assert all(m.seed == derive_seed(5, m.round, m.table, m.rotation) for m in plain)


def test_schedule_is_deterministic() -> None:
    first = make_schedule(25, 5, rounds=2, seed=123, max_tables=50)
    balanced_design.cache_clear()  # rebuild the design rather than reuse it
    assert make_schedule(25, 5, rounds=2, seed=123, max_tables=50) == first
    other = make_schedule(25, 5, rounds=2, seed=124, max_tables=50)
    assert [m.seed for m in other] != [m.seed for m in first]
    assert [m.seats for m in other] != [m.seats for m in first]


def test_match_ids_are_zero_padded() -> None:
    schedule = make_schedule(5, 2, rounds=10, seed=1)
    assert schedule[0].match_id == "r01-t000-s0"
    assert schedule[-1].match_id == "r10-t009-s1"
    big = make_schedule(100, 2, rounds=1, seed=1)  # 4950 tables
    assert big[0].match_id == "r1-t0000-s0"
    assert big[-1].match_id == "r1-t4949-s1"
    assert sorted(m.match_id for m in big) == [m.match_id for m in big]


def test_example_id_shape() -> None:
    schedule = make_schedule(10, 3, rounds=1, seed=1)
    match = next(m for m in schedule if m.table == 7 and m.rotation == 2)
    assert match.match_id == "r1-t007-s2"
    assert match.round == 1


# --- validation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "options", "message"),
    [
        ((1, 2), {}, "entrants must be at least 2"),
        ((4, 1), {}, "players must be at least 2"),
        ((4, 5), {}, r"players must be between 2 and entrants \(4\)"),
        ((4, 2), {"rounds": 0}, "rounds must be at least 1"),
        ((4, 2), {"max_tables": 0}, "max_tables must be at least 1"),
        ((4.0, 2), {}, "entrants must be an integer"),
        ((4, True), {}, "players must be an integer"),
        ((4, 2), {"seed": "1"}, "seed must be an integer"),
    ],
)
def test_invalid_arguments(args: tuple[Any, ...], options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_schedule(*args, **{"rounds": 1, "seed": 1, **options})


# --- property --------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 9).flatmap(lambda n: st.tuples(st.just(n), st.integers(2, min(5, n)))),
    st.integers(1, 3),
    st.integers(1, 40),
    st.integers(0, 3),
    st.booleans(),
)
def test_schedule_properties(
    size: tuple[int, int], rounds: int, max_tables: int, seed: int, duplicate: bool
) -> None:
    n, k = size
    schedule = make_schedule(n, k, rounds=rounds, seed=seed, duplicate=duplicate, max_tables=max_tables)
    check_schedule(schedule, n, k, rounds=rounds, seed=seed, duplicate=duplicate, max_tables=max_tables)
    assert schedule == make_schedule(
        n, k, rounds=rounds, seed=seed, duplicate=duplicate, max_tables=max_tables
    )
