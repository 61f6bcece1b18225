"""Blind auction as a smtourney game plugin: the whole contract in one small module."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sdk.games.codec import Bound, MessageCodec
from sdk.games.plugin import Parameter
from sdk.games.plugin_base import Engine, PluginBase, Words
from sdk.games.wire_table import decision_table

from .engine import (
    HAND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Bid,
    Claim,
    Observation,
    State,
    Step,
    new_game,
    step_from_json,
    step_to_json,
)
from .protocol import auction_pb2 as pb

OBSERVATION = MessageCodec(pb.Observation, Observation)


def _observation_of(kind: str, request: Any) -> Observation:
    """The seat comes from the context, a claimant's winning bid from its request."""
    observation: Observation = OBSERVATION.decode(
        request.observation,
        "observation",
        seat=request.context.seat,
        winning_bid=getattr(request, "winning_bid", 0),
    )
    return observation


DECISIONS = decision_table(
    "blind_auction",
    pb.DESCRIPTOR.services_by_name["Auction"],
    OBSERVATION,
    {
        "bid": MessageCodec(
            pb.BidReply, Bid, skip=("decision_id",), bounds={"card": Bound(max(HAND) + 1, "card", 1)}
        ),
        "claim": Claim,
    },
    {"bid": "which card of your hand to bid", "claim": "keep the prize, or take your bid card back"},
    extras={"claim": lambda observation: {"winning_bid": observation.winning_bid}},
    decode_request=_observation_of,
)


def view(game: State, seat: int | None) -> dict[str, Any]:
    return {
        "round": game.round,
        "prize": game.prize,
        "prizes_left": len(game.deck),
        "scores": game.scores(),
        "hands": [sorted(hand) if seat in (None, s) else len(hand) for s, hand in enumerate(game.hands)],
        "last_bids": list(game.last_bids),
    }


def render(game: State, seat: int | None) -> str:
    shown = view(game, seat)
    return (
        f"round {shown['round']}, prize {shown['prize']}, {shown['prizes_left']} left; "
        f"scores {shown['scores']}; hands {shown['hands']}; last bids {shown['last_bids']}"
    )


def describe(game: State, step: Step, seat: int | None) -> str | None:
    if isinstance(step, Bid):
        return f"bids {step.card}" if seat in (None, game.current_player) else "bids a hidden card"
    if isinstance(step, Claim):
        return "keeps the prize" if step.keep else "takes the bid card back"
    return "the prizes are shuffled" if seat is not None else f"prize order {list(step.order)}"


class BlindAuctionPlugin(PluginBase[State]):
    """The plugin base supplies the rest: the type guard, JSON, the decision's kind, the secrecy
    calls (``State.observation`` and ``State.resample_hidden``) and the default (the first legal action)."""

    name = "blind_auction"
    title = "Blind auction"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    parameters: tuple[Parameter, ...] = (
        Parameter("prizes", 5, "number of prizes, worth 1 to this many points"),
    )
    decisions = DECISIONS
    chance_stream = "prizes"
    web_script = Path(__file__).with_name("web") / "blind_auction.js"
    demo_seats = ("python -m bots.random", "python -m bots.random")
    engine = Engine(State, new_game, step_to_json, step_from_json)
    words = Words(render, view, describe)

    def normalize_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(params) - {"prizes"}
        if unknown:
            raise ValueError(f"unknown parameter {sorted(unknown)[0]!r} (known: prizes)")
        prizes = params.get("prizes", 5)
        if not isinstance(prizes, int) or isinstance(prizes, bool) or not 1 <= prizes <= 20:
            raise ValueError("prizes must be a whole number from 1 to 20")
        return {"prizes": prizes}

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

    def turn(self, state: Any) -> int:
        return max(1, self.state_of(state).round)

    def summary(self, state: Any) -> dict[str, Any]:
        return {"rounds": self.state_of(state).round}


PLUGIN = BlindAuctionPlugin()
