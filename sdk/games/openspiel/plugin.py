"""``FAMILY``: every OpenSpiel game as a game plugin, by the name ``openspiel:<game>``.

The registry asks the family for a game by its name after the prefix; one
:class:`OpenSpielGame` plugin is made per game name, its parameters checked by OpenSpiel.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from sdk.games.decisions import DecisionTable
from sdk.games.plugin import GamePlugin, Parameter, PluginDefaults
from sdk.games.spectator import common_text
from sdk.games.tensors import Tensors

from . import hidden, tensors, view
from .actions import Action, Step, step_from_json, step_to_json
from .admitted import admitted
from .decisions import KIND, PREFIX, decisions
from .defaults import default_action
from .loader import pyspiel
from .observation import Observation, deciding, observe
from .params import Loaded, load
from .state import CHANCE, State, new_game


class OpenSpielGame(PluginDefaults):
    """One OpenSpiel game held to the game contract."""

    chance_stream: str = "openspiel"
    web_script: Path = Path(__file__).parent / "web" / "openspiel.js"
    demo_seats: tuple[str, ...] = ("python -m bots.random", "python -m bots.random")

    def __init__(
        self, spiel_name: str, defaults: Mapping[str, Any], players: tuple[int, int] | None = None
    ) -> None:
        self.spiel_name = spiel_name
        self.name = f"{PREFIX}:{spiel_name}"
        self.sample_params = dict(defaults)
        loaded = load(spiel_name, defaults)
        kind = loaded.game.get_type()
        self.title = f"{kind.long_name} (OpenSpiel)"
        # An admitted game is listed for the table sizes its admission checked; any other keeps the game's.
        self.min_players, self.max_players = players or (int(kind.min_num_players), int(kind.max_num_players))
        self.parameters = tuple(
            Parameter(key, value, "OpenSpiel's parameter") for key, value in loaded.params.items()
        )
        self.decisions: DecisionTable = decisions(self.name)

    def _loaded(self, params: Mapping[str, Any]) -> Loaded:
        return load(self.spiel_name, {**self.sample_params, **params})

    def _state(self, state: Any) -> State:
        if not isinstance(state, State) or state.loaded.name != self.spiel_name:
            raise TypeError(f"not a {self.title} state: {state!r}")
        return state

    def normalize_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return dict(self._loaded(params).params)

    def new_state(self, players: int, params: Mapping[str, Any]) -> State:
        return new_game(self._loaded(params), players)

    def tensors_for(self, players: int, params: Mapping[str, Any]) -> Tensors | None:
        """OpenSpiel's own numbers for a table of ``players`` with ``params`` (they depend on both)."""
        return tensors.tensors_for(self.spiel_name, players, self.normalize_params(params))

    def decision_kind(self, state: Any) -> str:
        if not deciding(self._state(state)):
            raise ValueError("no decision is pending")
        return KIND

    def deciding_seats(self, state: Any) -> tuple[int, ...]:
        return deciding(self._state(state))

    def observe(self, state: Any, seat: int) -> Observation:
        return observe(self._state(state), seat)

    def resample_hidden(self, state: Any, seat: int, rng: random.Random) -> State:
        return hidden.resample_hidden(self._state(state), seat, rng)

    def random_action(self, observation: Any, rng: random.Random) -> Action:
        if not isinstance(observation, Observation) or not observation.legal:
            raise ValueError(f"no legal action to choose from in {observation!r}")
        return Action(rng.choice(observation.legal)[0])

    def default_action(self, state: Any) -> Step:
        return default_action(self._state(state))

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        if data.get("game") != self.spiel_name:
            raise ValueError(f"not a {self.name} state: game {data.get('game')!r}")
        return State.from_json(data)

    def step_to_json(self, step: Any) -> dict[str, Any]:
        return step_to_json(step)

    def step_from_json(self, data: Mapping[str, Any]) -> Step:
        return step_from_json(data)

    def turn(self, state: Any) -> int:
        return self._state(state).turn

    def render(self, state: Any, seat: int | None = None) -> str:
        return view.render(self._state(state), seat)

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        return view.view(self._state(state), seat)

    def describe(self, state: Any, step: Any, seat: int | None = None) -> str | None:
        return view.describe(self._state(state), step, seat)

    def summary(self, state: Any) -> dict[str, Any]:
        return {"returns": list(self._state(state).spiel.returns())}

    def spectator_view(self, state: Any) -> dict[str, Any]:
        return view.spectator_view(self._state(state))

    def spectator_describe(self, state: Any, step: Any) -> str | None:
        game = self._state(state)
        decider = None if game.current_player == CHANCE or game.is_terminal() else game.current_player
        return common_text([view.describe(game, step, seat) for seat in range(game.loaded.players)], decider)


class OpenSpielFamily:
    """The games named ``openspiel:<game>``: resolved on demand, the admitted ones listed."""

    prefix = PREFIX

    def game(self, spiel_name: str) -> GamePlugin:
        """The plugin of OpenSpiel's ``spiel_name``; KeyError saying what is wrong or missing."""
        return _plugin(spiel_name)

    def listed(self) -> dict[str, GamePlugin]:
        """The games admitted by test (``admitted.json``), listed and checked like the installed ones."""
        try:
            pyspiel()
        except KeyError:
            return {}
        return {plugin.name: plugin for plugin in (_plugin(name) for name in admitted())}


@cache
def _plugin(spiel_name: str) -> GamePlugin:
    spiel = pyspiel()
    if spiel_name not in {game.short_name for game in spiel.registered_games()}:
        raise KeyError(f"unknown OpenSpiel game {spiel_name!r}")
    try:
        kind = spiel.load_game(spiel_name).get_type()
    except spiel.SpielError as error:
        raise KeyError(f"openspiel:{spiel_name} does not load: {str(error).strip()}") from None
    if kind.chance_mode == spiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise KeyError(f"openspiel:{spiel_name} draws chance inside OpenSpiel, which the referee cannot seed")
    entry = admitted().get(spiel_name)
    if entry is None:
        return OpenSpielGame(spiel_name, {})
    plugin: GamePlugin = OpenSpielGame(spiel_name, entry.params, (entry.min_players, entry.max_players))
    return plugin


FAMILY = OpenSpielFamily()
