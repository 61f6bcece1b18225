"""OpenSpiel's CFR as an entrant: its average policy covers every information state, and played
against the uniformly random bot it wins chips in expectation from either seat (worked out exactly
over the whole game tree, chance included); sandboxed, it passes ``bot check``."""

from __future__ import annotations

from typing import Any

import pytest

from bots.openspiel.cfr import Policy, hand_information_state, solve, stage_game
from sdk.games.openspiel.loader import pyspiel
from sdk.games.openspiel.observation import Observation
from sdk.games.openspiel.params import load

from ..server.conftest import ROOT
from .test_commands import _smtourney


def expected_return(state: Any, policy: Policy, seat: int) -> float:
    """``seat``'s expected return when it plays ``policy`` and every other seat plays uniformly."""
    if state.is_terminal():
        return float(state.returns()[seat])
    if state.is_chance_node():
        outcomes: list[tuple[int, float]] = state.chance_outcomes()
        return sum(p * expected_return(state.child(a), policy, seat) for a, p in outcomes)
    legal: list[int] = state.legal_actions()
    if state.current_player() == seat:
        chances = policy[state.information_state_string()]
    else:
        chances = [(action, 1 / len(legal)) for action in legal]
    return sum(p * expected_return(state.child(a), policy, seat) for a, p in chances if p > 0)


@pytest.mark.parametrize(("game", "states"), [("kuhn_poker", 12), ("leduc_poker", 936)])
def test_the_policy_covers_every_information_state_and_beats_random_from_each_seat(
    game: str, states: int
) -> None:
    loaded = pyspiel().load_game(game)
    policy = solve(loaded, 100)
    assert len(policy) == states
    assert all(abs(sum(p for _, p in chances) - 1) < 1e-9 for chances in policy.values())
    for seat in (0, 1):
        assert expected_return(loaded.new_initial_state(), policy, seat) > 0.1, (game, seat)


def test_bot_check_passes_sandboxed(tmp_path: Any) -> None:
    check = _smtourney(
        "bot",
        "check",
        "python -m bots.openspiel.cfr",
        "--game",
        "openspiel:leduc_poker",
        "--players",
        "2",
        cwd=ROOT,
    )
    lines = check.stdout.strip().splitlines()
    assert check.returncode == 0 and all(line.startswith("PASS ") for line in lines), check.stdout


def test_a_hand_of_a_repeated_game_is_looked_up_in_its_stage_games_policy() -> None:
    """Every decision of a session of Leduc hands is one of the policy's, by the hand's own
    information state, except the one-action "continue" between hands."""
    game = pyspiel().load_game("repeated_leduc_poker", {"num_hands": 3})
    name, params = stage_game("repeated_leduc_poker", dict(game.get_parameters()))
    assert name == "leduc_poker"
    policy = solve(load(name, params).game, 10)
    state, found, continues = game.new_initial_state(), 0, 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        seat = state.current_player()
        seen = Observation(
            game="repeated_leduc_poker",
            params_json="{}",
            seat=seat,
            players=2,
            information_state_string=state.information_state_string(seat),
        )
        if hand_information_state(seen) in policy:
            found += 1
        else:
            assert len(state.legal_actions()) == 1, seen.information_state_string
            continues += 1
        state.apply_action(state.legal_actions()[-1])
    assert found >= 6 and continues == 6
