"""Blind auction as a smtourney game plugin: the whole contract in one small module."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sdk.games.context_wire import context_message
from sdk.games.decisions import DecisionContext, DecisionSpec, DecisionTable, MalformedReplyError
from sdk.games.plugin import Parameter, PluginDefaults

from .engine import (
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


def _observation_message(observation: Observation) -> pb.Observation:
    return pb.Observation(
        players=observation.players,
        round=observation.round,
        prize=observation.prize,
        prizes_left=observation.prizes_left,
        hand=observation.hand,
        scores=observation.scores,
        hand_sizes=observation.hand_sizes,
        bid_this_round=observation.bid_this_round,
        last_bids=observation.last_bids,
    )


def _observation_of(message: Any, seat: int, winning_bid: int = 0) -> Observation:
    o = message.observation
    return Observation(
        seat=seat,
        players=o.players,
        round=o.round,
        prize=o.prize,
        prizes_left=o.prizes_left,
        hand=tuple(o.hand),
        scores=tuple(o.scores),
        hand_sizes=tuple(o.hand_sizes),
        bid_this_round=tuple(o.bid_this_round),
        last_bids=tuple(o.last_bids),
        winning_bid=winning_bid,
    )


def _bid_request(observation: Observation, context: DecisionContext) -> pb.BidRequest:
    return pb.BidRequest(context=context_message(context), observation=_observation_message(observation))


def _claim_request(observation: Observation, context: DecisionContext) -> pb.ClaimRequest:
    return pb.ClaimRequest(
        context=context_message(context),
        observation=_observation_message(observation),
        winning_bid=observation.winning_bid,
    )


def _decode_bid(reply: pb.BidReply) -> Bid:
    if reply.card == 0:
        raise MalformedReplyError("the reply bids no card (field `card` is 0)")
    return Bid(reply.card)


DECISIONS = DecisionTable(
    "blind_auction",
    pb.DESCRIPTOR.services_by_name["Auction"],
    [
        DecisionSpec(
            kind="bid",
            rpc="Bid",
            request_type=pb.BidRequest,
            reply_type=pb.BidReply,
            encode_request=_bid_request,
            decode_request=lambda request: _observation_of(request, request.context.seat),
            encode_reply=lambda action, decision_id: pb.BidReply(decision_id=decision_id, card=action.card),
            decode_reply=_decode_bid,
            summary="which card of your hand to bid",
        ),
        DecisionSpec(
            kind="claim",
            rpc="Claim",
            request_type=pb.ClaimRequest,
            reply_type=pb.ClaimReply,
            encode_request=_claim_request,
            decode_request=lambda r: _observation_of(r, r.context.seat, r.winning_bid),
            encode_reply=lambda action, decision_id: pb.ClaimReply(decision_id=decision_id, keep=action.keep),
            decode_reply=lambda reply: Claim(reply.keep),
            summary="keep the prize, or take your bid card back",
        ),
    ],
)


def _state(state: Any) -> State:
    if not isinstance(state, State):
        raise TypeError(f"not a blind-auction state: {state!r}")
    return state


class BlindAuctionPlugin(PluginDefaults):
    name = "blind_auction"
    title = "Blind auction"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    parameters = (Parameter("prizes", 5, "number of prizes, worth 1 to this many points"),)
    decisions = DECISIONS
    chance_stream = "prizes"
    web_script = Path(__file__).with_name("web") / "blind_auction.js"
    demo_seats = ("python -m bots.random", "python -m bots.random")

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

    def decision_kind(self, state: Any) -> str:
        decision = _state(state).decision
        if decision is None:
            raise ValueError("no decision is pending")
        return decision

    def deciding_seats(self, state: Any) -> tuple[int, ...]:
        """Bids are sealed: every seat still to bid this round bids at once (a claim is one seat's)."""
        game = _state(state)
        return tuple(game.to_bid) if game.decision == "bid" else (game.current_player,)

    def observe(self, state: Any, seat: int) -> Observation:
        return _state(state).observation(seat)

    def resample_hidden(self, state: Any, seat: int, rng: random.Random) -> State:
        return _state(state).resample_hidden(seat, rng)

    def random_action(self, observation: Any, rng: random.Random) -> Any:
        if observation.winning_bid:
            return Claim(rng.random() < 0.5)
        return Bid(rng.choice(observation.hand))

    def default_action(self, state: Any) -> Any:
        return _state(state).legal_actions()[0]

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(dict(data))

    def step_to_json(self, step: Step) -> dict[str, Any]:
        return step_to_json(step)

    def step_from_json(self, data: Mapping[str, Any]) -> Step:
        return step_from_json(dict(data))

    def turn(self, state: Any) -> int:
        return max(1, _state(state).round)

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        game = _state(state)
        return {
            "round": game.round,
            "prize": game.prize,
            "prizes_left": len(game.deck),
            "scores": game.scores(),
            "hands": [sorted(hand) if seat in (None, s) else len(hand) for s, hand in enumerate(game.hands)],
            "last_bids": list(game.last_bids),
        }

    def render(self, state: Any, seat: int | None = None) -> str:
        view = self.view(state, seat)
        return (
            f"round {view['round']}, prize {view['prize']}, {view['prizes_left']} left; "
            f"scores {view['scores']}; hands {view['hands']}; last bids {view['last_bids']}"
        )

    def describe(self, state: Any, step: Any, seat: int | None = None) -> str | None:
        if isinstance(step, Bid):
            who = _state(state).current_player
            return f"bids {step.card}" if seat in (None, who) else "bids a hidden card"
        if isinstance(step, Claim):
            return "keeps the prize" if step.keep else "takes the bid card back"
        return "the prizes are shuffled" if seat is not None else f"prize order {list(step.order)}"

    def summary(self, state: Any) -> dict[str, Any]:
        return {"rounds": _state(state).round}


PLUGIN = BlindAuctionPlugin()
