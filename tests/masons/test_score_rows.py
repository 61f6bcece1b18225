"""The final score table: what each seat scored in every scoring round (M6) and in the final scoring
(M4), in the order played, adding up to every seat's final score."""

from __future__ import annotations

import random

import pytest

from sdk.games.masons.hidden import determinize
from sdk.games.masons.observation import observe
from sdk.games.masons.phases import SCORE
from sdk.games.masons.plugin import PLUGIN
from sdk.games.masons.scoring import score_rows
from sdk.games.masons.state import State
from sdk.games.masons.view import view
from sdk.games.play import RandomPolicy, play_to_end
from sdk.games.score_rows import row_totals


def finished(seed: int, players: int) -> State:
    policies = [RandomPolicy(random.Random(seed * 10 + seat)) for seat in range(players)]
    state: State = play_to_end(PLUGIN, policies, random.Random(seed))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_rows_add_up_to_each_final_score_one_per_scoring_in_order(seed: int) -> None:
    players = 2 + seed % 3
    state = finished(seed, players)
    rows = score_rows(state)
    assert row_totals(rows) == state.scores()
    rounds = [row for row in rows if row.key != "final"]
    assert [row.key for row in rounds] == [f"round_{n}" for n in range(1, len(rounds) + 1)]
    assert len(rounds) >= len(state.cities)  # a city joined by a later one is scored again
    assert all(row.key != "final" for row in rows[:-1])
    shown = view(state)["final_scoring"]
    assert shown == [row.to_json() for row in rows]
    assert all(view(state, seat)["final_scoring"] == shown for seat in range(players))
    assert State.from_json(state.to_json()).scorings == state.scorings


def test_the_rows_name_the_city_and_points_are_scored() -> None:
    state = finished(2, 3)
    first = score_rows(state)[0]
    city = state.scorings[0].city
    assert first.label.startswith(f"scoring round 1: city {city} (")
    sizes = {row.label.split("(")[1] for row in score_rows(state) if row.key != "final"}
    assert all(size == "1 space)" or size.endswith(" spaces)") for size in sizes)
    assert any(any(row.points) for seed in range(3) for row in score_rows(finished(seed, 2)))
    assert "final_scoring" not in view(PLUGIN.new_state(2, {}))


def test_a_position_built_from_an_observation_mid_round_scores_on() -> None:
    """A search's state, dealt from an observation, knows no earlier scoring; its points still count."""
    rng = random.Random(4)
    state: State = PLUGIN.new_state(2, {})
    policies = [RandomPolicy(random.Random(seat)) for seat in range(2)]
    while not (state.phase == SCORE and not state.is_chance_node()):
        step = state.sample_chance(rng) if state.is_chance_node() else policies[state.current_player](state)
        state.apply(step)
    guess = determinize(observe(state, state.current_player), rng)
    assert guess.scorings == []
    seat = guess.current_player
    before = guess.points[seat]
    finish = play_to_end(guess, policies, rng)
    assert finish.is_terminal() and finish.points[seat] >= before
    assert finish.scorings and finish.scorings[0].city == state.scored_city
