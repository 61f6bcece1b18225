"""The final score table: rows in the rulebook's order that add up to every seat's final score."""

from __future__ import annotations

import random

import pytest

from sdk.games.play import RandomPolicy, play_to_end
from sdk.games.saint_malo.plugin import PLUGIN
from sdk.games.saint_malo.scoring import AT_THE_END, DURING_PLAY, score_rows
from sdk.games.saint_malo.state import State
from sdk.games.saint_malo.view import view
from sdk.games.score_rows import row_totals


def finished(seed: int, players: int) -> State:
    policies = [RandomPolicy(random.Random(seed * 10 + seat)) for seat in range(players)]
    state: State = play_to_end(PLUGIN, policies, random.Random(seed))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_rows_add_up_to_each_final_score_and_the_track_to_the_vp(seed: int) -> None:
    state = finished(seed, 2 + seed % 3)
    rows = score_rows(state)
    assert row_totals(rows) == state.scores()
    during = row_totals([row for row in rows if row.stage == DURING_PLAY])
    assert during == [city.vp for city in state.cities]
    assert view(state)["final_scoring"] == [row.to_json() for row in rows]


def test_rows_follow_the_rulebook_walls_then_persons_then_the_end() -> None:
    keys = [row.key for row in score_rows(finished(1, 3))]
    assert keys == [
        "wall_bonuses", "citizens", "priests", "houses", "jugglers", "nobles",
        "full_city", "coins", "logs", "churches", "cannons",
    ]  # fmt: skip
    stages = [row.stage for row in score_rows(finished(1, 3))]
    assert stages == [DURING_PLAY] * 6 + [AT_THE_END] * 5


def test_only_the_end_carries_the_table() -> None:
    state = PLUGIN.new_state(2, {})
    assert "final_scoring" not in view(state)
