"""The final score table: the score track at the end of play, then final scoring (B21) part by
part, adding up to every seat's final score."""

from __future__ import annotations

import random

import pytest

import sdk.games.bruges.state as state_module
from sdk.games.bruges.actions import Step
from sdk.games.bruges.plugin import PLUGIN
from sdk.games.bruges.scoring import DURING_PLAY, FINAL_LABELS, FINAL_SCORING, final_points, score_rows
from sdk.games.bruges.state import State
from sdk.games.bruges.view import view
from sdk.games.play import RandomPolicy, play_to_end
from sdk.games.score_rows import row_totals


def finished(seed: int, players: int, steps: list[Step] | None = None) -> State:
    policies = [RandomPolicy(random.Random(seed * 10 + seat)) for seat in range(players)]
    state: State = play_to_end(PLUGIN, policies, random.Random(seed), steps=steps)
    return state


def without_final_scoring(seed: int, players: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The same game's scores had final scoring added nothing: what the track held after play."""
    steps: list[Step] = []
    finished(seed, players, steps)
    monkeypatch.setattr(state_module, "final_points", lambda state, seat: {})
    state: State = PLUGIN.new_state(players, {})
    for step in steps:
        state.apply(step)
    assert state.is_terminal()
    return state.scores()


@pytest.mark.parametrize("seed", range(5))
def test_rows_add_up_to_each_final_score_and_play_is_the_track_before_final_scoring(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = 2 + seed % 3
    state = finished(seed, players)
    rows = score_rows(state)
    assert row_totals(rows) == state.scores()
    assert row_totals([row for row in rows if row.stage == DURING_PLAY]) == without_final_scoring(
        seed, players, monkeypatch
    )
    assert [row.key for row in rows if row.stage == FINAL_SCORING] == [key for key, _ in FINAL_LABELS]
    for seat in range(players):
        assert {row.key: row.points[seat] for row in rows[2:]} == final_points(state, seat)
    assert view(state)["final_scoring"] == [row.to_json() for row in rows]
    assert all(view(state, seat)["final_scoring"] == view(state)["final_scoring"] for seat in range(players))


def test_play_scores_points_and_the_table_is_only_for_the_end() -> None:
    state = finished(3, 2)
    play = score_rows(state)[1]
    assert play.key == "play" and any(play.points)
    fresh = PLUGIN.new_state(2, {})
    assert "final_scoring" not in view(fresh)
    with pytest.raises(ValueError, match="end of the game"):
        score_rows(fresh)
