"""The ``smtourney.openspiel.v1`` messages both ways: an :class:`Observation` exactly, and a reply
as the one action id it names."""

from __future__ import annotations

from typing import Any

from sdk.games.decisions import MalformedReplyError
from sdk.games.openspiel.protocol import openspiel_pb2 as pb

from .actions import Action
from .observation import Observation, Tensor


def _put_tensor(message: Any, tensor: Tensor) -> None:
    message.shape.extend(tensor.shape)
    message.values.extend(tensor.values)


def fill_observation(message: pb.Observation, seen: Observation) -> None:
    message.game = seen.game
    message.params_json = seen.params_json
    message.seat = seen.seat
    message.players = seen.players
    message.observation_string = seen.observation_string
    message.information_state_string = seen.information_state_string
    _put_tensor(message.observation_tensor, seen.observation_tensor)
    _put_tensor(message.information_state_tensor, seen.information_state_tensor)
    message.perfect_information = seen.perfect_information
    message.history.extend(pb.HistoryStep(player=player, action=action) for player, action in seen.history)
    message.legal.extend(pb.LegalAction(id=action, name=name) for action, name in seen.legal)


def observation_from(message: pb.Observation) -> Observation:
    return Observation(
        game=message.game,
        params_json=message.params_json,
        seat=message.seat,
        players=message.players,
        observation_string=message.observation_string,
        information_state_string=message.information_state_string,
        observation_tensor=Tensor(
            tuple(message.observation_tensor.shape), tuple(message.observation_tensor.values)
        ),
        information_state_tensor=Tensor(
            tuple(message.information_state_tensor.shape), tuple(message.information_state_tensor.values)
        ),
        perfect_information=message.perfect_information,
        history=tuple((step.player, step.action) for step in message.history),
        legal=tuple((action.id, action.name) for action in message.legal),
    )


def reply(action: Action, decision_id: int) -> pb.SpielActionReply:
    return pb.SpielActionReply(decision_id=decision_id, action=action.id)


def action_from(message: pb.SpielActionReply) -> Action:
    if not isinstance(message, pb.SpielActionReply):
        raise MalformedReplyError(f"not a SpielActionReply: {type(message).__name__}")
    return Action(message.action)
