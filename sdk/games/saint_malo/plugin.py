"""Saint Malo as a referee plugin (see :mod:`sdk.games.plugin`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import grpc
from google.protobuf.message import Message

from sdk.games.plugin import DecisionContext
from sdk.protocol.saint_malo.v1 import saint_malo_pb2 as pb
from sdk.protocol.saint_malo.v1 import saint_malo_pb2_grpc as pb_grpc
from sdk.protocol.v1 import bot_pb2

from .actions import Action, Step, step_from_json, step_to_json
from .bot import SaintMaloBot, SaintMaloServicer
from .defaults import default_action
from .params import MAX_PLAYERS, MIN_PLAYERS, Params
from .pieces import Decision
from .render import render
from .state import State, new_game
from .view import describe, view
from .wire import decode_reply, fill_observation

_Request = pb.KeepRequest | pb.ChooseRequest | pb.RotateRequest | pb.PlaceRequest | pb.PlaceBonusPersonRequest
_METHODS: dict[Decision, tuple[str, type[_Request]]] = {
    Decision.KEEP: ("Keep", pb.KeepRequest),
    Decision.CHOOSE: ("Choose", pb.ChooseRequest),
    Decision.ROTATE: ("Rotate", pb.RotateRequest),
    Decision.PLACE: ("Place", pb.PlaceRequest),
    Decision.BONUS_PERSON: ("PlaceBonusPerson", pb.PlaceBonusPersonRequest),
}


def _state(state: Any) -> State:
    if not isinstance(state, State):
        raise TypeError(f"not a Saint Malo state: {state!r}")
    return state


def _decision(state: State) -> Decision:
    decision = state.decision
    if decision is None:
        raise ValueError("no decision is pending")
    return decision


class SaintMaloPlugin:
    """Engine, codec, defaults and renderer of Saint Malo for the referee."""

    name = "saint_malo"
    title = "Saint Malo"
    service_name = pb.DESCRIPTOR.services_by_name["SaintMalo"].full_name
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def normalize_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return Params.from_json(dict(params)).to_json()

    def new_state(self, players: int, params: Mapping[str, Any]) -> State:
        return new_game(players, Params.from_json(dict(params)))

    def decision_kind(self, state: Any) -> str:
        return _decision(_state(state)).value

    def make_stub(self, channel: grpc.Channel) -> pb_grpc.SaintMaloStub:
        return pb_grpc.SaintMaloStub(channel)

    def request(self, state: Any, context: DecisionContext) -> tuple[str, Message]:
        state = _state(state)
        decision = _decision(state)
        method, request_type = _METHODS[decision]
        fields: dict[str, Any] = {
            "context": bot_pb2.DecisionContext(
                match_id=context.match_id,
                decision_id=context.decision_id,
                seat=context.seat,
                decision_ms=context.decision_ms,
                time_bank_ms=context.time_bank_ms,
            ),
        }
        if decision is Decision.CHOOSE:
            fields["available"] = [s + 1 for s in state.available_symbols()]
        elif decision is Decision.ROTATE:
            fields["legal"] = [a.dice for a in state.iter_legal_actions()]
        request = request_type(**fields)
        # Written in place: building the observation apart and copying it in costs more.
        fill_observation(request.observation, state)
        return method, request

    def decode_reply(self, state: Any, reply: Message) -> Action:
        return decode_reply(_decision(_state(state)), reply)

    def default_action(self, state: Any) -> Action:
        return default_action(_state(state))

    def step_to_json(self, step: Step) -> dict[str, Any]:
        return step_to_json(step)

    def step_from_json(self, data: Mapping[str, Any]) -> Step:
        return step_from_json(dict(data))

    def render(self, state: Any) -> str:
        return render(_state(state))

    def view(self, state: Any) -> dict[str, Any]:
        return view(_state(state))

    def describe(self, state: Any, step: Step) -> str:
        return describe(_state(state), step)

    def summary(self, state: Any) -> dict[str, Any]:
        state = _state(state)
        return {
            "turns": state.turn,
            "pirate_attacks": [
                {"turn": a.turn, "strength": a.strength, "defences": list(a.defences)} for a in state.attacks
            ],
            "score_breakdown": [
                {part.name.lower(): points for part, points in city.score_breakdown().items()}
                for city in state.cities
            ],
        }

    def add_servicer(self, server: grpc.Server, bot: Any) -> None:
        if not isinstance(bot, SaintMaloBot):
            raise TypeError(f"{type(bot).__name__} does not derive from SaintMaloBot")
        pb_grpc.add_SaintMaloServicer_to_server(SaintMaloServicer(bot), server)


PLUGIN = SaintMaloPlugin()
