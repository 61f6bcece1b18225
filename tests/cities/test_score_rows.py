"""The final score table: empires completed and the wonders bonus, adding up to every final score."""

from __future__ import annotations

import random

import pytest

from sdk.games.cities.plugin import PLUGIN
from sdk.games.cities.scoring import score_rows
from sdk.games.cities.state import WONDERS_BONUS, State
from sdk.games.cities.view import view
from sdk.games.play import RandomPolicy, play_to_end
from sdk.games.score_rows import row_totals


def finished(seed: int, players: int) -> State:
    policies = [RandomPolicy(random.Random(seed * 10 + seat)) for seat in range(players)]
    state: State = play_to_end(PLUGIN, policies, random.Random(seed))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_rows_add_up_to_each_final_score(seed: int) -> None:
    players = 2 + seed % 3
    state = finished(seed, players)
    rows = score_rows(state)
    assert [row.key for row in rows] == ["empires", "wonders"]
    assert row_totals(rows) == state.scores()
    assert sorted(rows[1].points) in ([0] * players, [0] * (players - 1) + [WONDERS_BONUS])
    shown = view(state)["final_scoring"]
    assert shown == [row.to_json() for row in rows]
    assert all(view(state, seat)["final_scoring"] == shown for seat in range(players))


def test_points_are_scored_and_the_table_is_only_for_the_end() -> None:
    assert any(any(score_rows(finished(seed, 3))[0].points) for seed in range(4))
    assert "final_scoring" not in view(PLUGIN.new_state(3, {}))
