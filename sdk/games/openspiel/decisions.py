"""The one decision of every OpenSpiel game: ``spiel_action``, an action id for the seat asked."""

from __future__ import annotations

from typing import Any

from sdk.games.context_wire import fill_context
from sdk.games.decisions import DecisionContext, DecisionSpec, DecisionTable
from sdk.games.openspiel.protocol import openspiel_pb2 as pb

from .observation import Observation
from .wire import action_from, fill_observation, observation_from, reply

KIND = "spiel_action"
#: The family's prefix of every adapted game's registry name.
PREFIX = "openspiel"


def _request(seen: Observation, context: DecisionContext) -> pb.SpielActionRequest:
    request = pb.SpielActionRequest()
    fill_context(request.context, context)
    fill_observation(request.observation, seen)
    return request


def _decoded(request: Any) -> Observation:
    return observation_from(request.observation)


def decisions(game: str) -> DecisionTable:
    """The decision table of the game registered as ``game``: one protocol for them all."""
    spec = DecisionSpec(
        kind=KIND,
        rpc="SpielAction",
        request_type=pb.SpielActionRequest,
        reply_type=pb.SpielActionReply,
        encode_request=_request,
        decode_request=_decoded,
        encode_reply=reply,
        decode_reply=action_from,
        summary="an action id from the request's legal actions",
    )
    return DecisionTable(game, pb.DESCRIPTOR.services_by_name["OpenSpiel"], [spec], game_of=_game_of)


def _game_of(request: Any) -> str:
    """Every adapted game shares the service: the request names its game."""
    return f"{PREFIX}:{request.observation.game}"
