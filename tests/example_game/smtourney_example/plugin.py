"""Blind auction as a smtourney game plugin: the contract's wiring (engine in ``state.py``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sdk.games.plugin import Parameter
from sdk.games.plugin_base import Engine, PluginBase, Words

from .decisions import DECISIONS
from .defaults import default_action
from .params import DEFAULT_PRIZES, normalize
from .state import MAX_PLAYERS, MIN_PLAYERS, Bid, Claim, State, new_game, step_from_json, step_to_json
from .tensors import TENSORS
from .view import describe, render, view


class BlindAuctionPlugin(PluginBase[State]):
    """The plugin base supplies the rest: the type guard, JSON, the decision's kind and the secrecy
    calls (``State.observation`` and ``State.resample_hidden``)."""

    name = "blind_auction"
    title = "Blind auction"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    parameters: tuple[Parameter, ...] = (
        Parameter("prizes", DEFAULT_PRIZES, "number of prizes, worth 1 to this many points"),
    )
    decisions = DECISIONS
    chance_stream = "prizes"
    web_script = Path(__file__).with_name("web") / "blind_auction.js"
    demo_seats = ("python -m bots.random", "python -m bots.random")
    engine = Engine(State, new_game, step_to_json, step_from_json)
    words = Words(render, view, describe)
    tensors = TENSORS

    def normalize_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return normalize(params)

    def new_state(self, players: int, params: Mapping[str, Any]) -> State:
        return new_game(players, self.normalize_params(params)["prizes"])

    def deciding_seats(self, state: Any) -> tuple[int, ...]:
        """Bids are sealed: every seat still to bid this round bids at once (a claim is one seat's)."""
        game = self.state_of(state)
        return tuple(game.to_bid) if game.decision == "bid" else (game.current_player,)

    def random_action(self, observation: Any, rng: random.Random) -> Any:
        if observation.winning_bid:
            return Claim(rng.random() < 0.5)
        return Bid(rng.choice(observation.hand))

    def default_action(self, state: Any) -> Any:
        return default_action(self.state_of(state))

    def turn(self, state: Any) -> int:
        return max(1, self.state_of(state).round)

    def summary(self, state: Any) -> dict[str, Any]:
        return {"rounds": self.state_of(state).round}


PLUGIN = BlindAuctionPlugin()
