"""Forming ladder tables: around the bot that most needs games, by match quality, never a bot twice."""

from __future__ import annotations

import pytest
import trueskill
from hypothesis import given, settings
from hypothesis import strategies as st

from server.ladder.matchmaking import Rated, form_table, most_in_need, pair_quality
from server.tournament.ratings import ENVIRONMENT


def bot(id: int, mu: float = 25.0, sigma: float = 8.0, games: int = 10) -> Rated:
    return Rated(id, mu, sigma, games)


def test_the_bot_most_in_need_has_fewest_games_then_largest_sigma_then_is_newest() -> None:
    assert most_in_need([bot(1, games=3), bot(2, games=2), bot(3, games=5)]).id == 2
    assert most_in_need([bot(1, sigma=2), bot(2, sigma=5), bot(3, sigma=3)]).id == 2
    assert most_in_need([bot(1), bot(7), bot(3)]).id == 7


def test_the_table_is_completed_by_the_bots_of_most_similar_rating() -> None:
    bots = [bot(1, mu=25, games=0), bot(2, mu=40), bot(3, mu=26), bot(4, mu=10), bot(5, mu=24)]
    table = form_table(bots, 3, candidates=32, min_quality=0, number=0)
    assert table is not None and table.focus.id == 1
    assert [seat.id for seat in table.seats] == [1, 3, 5]
    ratings = [(seat.rating,) for seat in table.seats]
    assert table.quality == pytest.approx(ENVIRONMENT.quality(ratings))


def test_only_the_nearest_candidates_are_considered() -> None:
    # Bot 2 would make the best pair (same mean, smaller sigma) but is not among the 1 nearest by mean.
    bots = [bot(1, mu=25, games=0), bot(2, mu=27, sigma=1), bot(3, mu=26, sigma=8)]
    table = form_table(bots, 2, candidates=1, min_quality=0, number=0)
    assert table is not None and [seat.id for seat in table.seats] == [1, 3]
    table = form_table(bots, 2, candidates=2, min_quality=0, number=0)
    assert table is not None and [seat.id for seat in table.seats] == [1, 2]


def test_seats_rotate_with_the_decision_number() -> None:
    bots = [bot(1, games=0), bot(2), bot(3)]
    orders = [
        [s.id for s in t.seats]
        for n in range(4)
        if (t := form_table(bots, 3, candidates=8, min_quality=0, number=n))
    ]
    assert orders == [[1, 2, 3], [2, 3, 1], [3, 1, 2], [1, 2, 3]]


def test_too_few_bots_or_too_low_a_quality_form_no_table() -> None:
    assert form_table([bot(1), bot(2)], 3, candidates=8, min_quality=0, number=0) is None
    far = [bot(1, mu=0, sigma=1), bot(2, mu=50, sigma=1)]
    assert form_table(far, 2, candidates=8, min_quality=0.1, number=0) is None
    assert form_table(far, 2, candidates=8, min_quality=0, number=0) is not None


def test_a_bot_given_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="each bot is given once"):
        form_table([bot(1), bot(1)], 2, candidates=8, min_quality=0, number=0)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 50), st.floats(0.5, 9), st.integers(0, 30)), min_size=2, max_size=25),
    st.integers(2, 5),
    st.integers(1, 10),
    st.integers(0, 1000),
)
def test_a_table_has_distinct_bots_including_the_one_most_in_need(
    specs: list[tuple[float, float, int]], players: int, candidates: int, number: int
) -> None:
    bots = [Rated(i, mu, sigma, games) for i, (mu, sigma, games) in enumerate(specs)]
    table = form_table(bots, players, candidates=candidates, min_quality=0, number=number)
    if len(bots) < players:
        assert table is None
        return
    assert table is not None and len(table.seats) == players
    assert len({seat.id for seat in table.seats}) == players
    assert table.focus == most_in_need(bots) and table.focus in table.seats
    assert table == form_table(bots, players, candidates=candidates, min_quality=0, number=number)


@settings(max_examples=100, deadline=None)
@given(st.floats(-20, 70), st.floats(0.1, 12), st.floats(-20, 70), st.floats(0.1, 12))
def test_the_closed_form_pair_quality_is_trueskill_s(
    mu_a: float, sigma_a: float, mu_b: float, sigma_b: float
) -> None:
    a, b = Rated(1, mu_a, sigma_a, 0), Rated(2, mu_b, sigma_b, 0)
    expected = trueskill.quality_1vs1(a.rating, b.rating, env=ENVIRONMENT)
    assert pair_quality(a, b) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_a_table_is_formed_around_a_bot_not_playing_now_and_may_be_completed_by_one_that_is() -> None:
    bots = [bot(1, mu=25, games=0), bot(2, mu=25.5, games=1), bot(3, mu=40, games=9)]
    table = form_table(bots, 2, candidates=32, min_quality=0, number=0, busy={1})
    assert table is not None and table.focus.id == 2  # bot 1 needs games most, but is playing
    assert {seat.id for seat in table.seats} == {1, 2}  # and still the best opponent for bot 2
    assert form_table(bots, 2, candidates=32, min_quality=0, number=0, busy={1, 2, 3}) is None
