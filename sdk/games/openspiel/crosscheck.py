"""The adapter checked against OpenSpiel itself: a seeded random game played through the adapter,
and the same action ids (chance outcomes included) applied to pyspiel directly, end in the same
history, state and returns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sdk.games import conformance
from sdk.games.plugin import GamePlugin

from .loader import pyspiel
from .state import State


def direct(name: str, params: Mapping[str, Any], steps: list[int]) -> Any:
    """``steps`` applied to pyspiel directly (joint actions at simultaneous nodes)."""
    state = pyspiel().load_game(name, dict(params)).new_initial_state()
    queue = list(steps)
    while queue:
        if state.is_simultaneous_node():
            seats = range(state.num_players())
            state.apply_actions([queue.pop(0) if state.legal_actions(seat) else -1 for seat in seats])
        else:
            state.apply_action(queue.pop(0))
    return state


def check_against_openspiel(plugin: GamePlugin, seed: int, players: int, params: Mapping[str, Any]) -> None:
    final: Any = plugin.new_state(players, params)
    for state, _ in conformance.walk(plugin, seed, players, params):
        final = state  # the walk applies each step to the state it yielded: the last one ends terminal
    assert isinstance(final, State)
    spiel = direct(final.loaded.name, final.loaded.params, final.to_json()["history"])
    assert spiel.is_terminal(), "the same actions applied in OpenSpiel do not end the game"
    assert spiel.history() == final.spiel.history(), "OpenSpiel's history differs"
    assert str(spiel) == str(final.spiel), "OpenSpiel's final state differs"
    assert list(spiel.returns()) == final.scores(), f"returns {spiel.returns()} against {final.scores()}"
    returns = list(spiel.returns())
    assert final.ranks() == [1 + sum(other > mine for other in returns) for mine in returns]
