"""Conversion between Bruges engine values and the ``smtourney.bruges.v1`` messages, both ways.

Used on both ends: the referee encodes a seat's :class:`Observation` and decodes the bot's
reply; a bot decodes the observation and encodes its action. Decoding a reply never trusts it:
anything that is not a well-formed action raises :class:`MalformedReplyError` (legality is the
engine's job); decoding a request raises ValueError the same way.
"""

from __future__ import annotations

from typing import Any

from sdk.games.bruges.protocol import bruges_pb2 as pb
from sdk.games.decisions import MalformedReplyError

from .actions import (
    Action,
    Activate,
    Advance,
    CancelPenalty,
    DrawPile,
    End,
    FireChoice,
    PenaltyOrder,
    PlagueDiscard,
    Play,
)
from .cards import COLOURS
from .observation import House, Observation
from .params import Params

__all__ = ["decode_action", "decode_observation", "encode_action", "encode_observation"]


def encode_action(action: Action) -> pb.Action:
    match action:
        case DrawPile(pile):
            return pb.Action(draw_pile=pb.DrawPile(pile=pile))
        case PenaltyOrder(colour):
            return pb.Action(penalty_order=pb.PenaltyOrder(colour=colour))
        case CancelPenalty(cancel):
            return pb.Action(cancel_penalty=pb.CancelPenalty(cancel=cancel))
        case PlagueDiscard(card):
            return pb.Action(plague_discard=pb.PlagueDiscard(card=card))
        case FireChoice(option, card):
            return pb.Action(fire_choice=pb.FireChoice(option=option, card=card))
        case Advance(advance):
            return pb.Action(advance=pb.Advance(advance=advance))
        case Activate(card, a, b):
            return pb.Action(activate=pb.Activate(card=card, a=a, b=b))
        case Play(card, action_number, arg):
            return pb.Action(play=pb.Play(card=card, action=action_number, arg=arg))
        case End():
            return pb.Action(end=pb.End())
    raise TypeError(f"not a Bruges action: {action!r}")


def decode_action(message: Any, error: type[ValueError] = MalformedReplyError) -> Action:
    """The action a message carries; ``error`` when it carries none."""
    which = message.WhichOneof("action") if isinstance(message, pb.Action) else None
    if which == "draw_pile":
        return DrawPile(message.draw_pile.pile)
    if which == "penalty_order":
        return PenaltyOrder(message.penalty_order.colour)
    if which == "cancel_penalty":
        return CancelPenalty(message.cancel_penalty.cancel)
    if which == "plague_discard":
        return PlagueDiscard(message.plague_discard.card)
    if which == "fire_choice":
        return FireChoice(message.fire_choice.option, message.fire_choice.card)
    if which == "advance":
        return Advance(message.advance.advance)
    if which == "activate":
        m = message.activate
        return Activate(m.card, m.a, m.b)
    if which == "play":
        m = message.play
        return Play(m.card, m.action, m.arg)
    if which == "end":
        return End()
    raise error("the action carries no draw_pile, penalty_order, ... or end: nothing to do")


def _params(params: Params) -> pb.Params:
    return pb.Params(
        threat_markers=params.threat_markers,
        statues=params.statues,
        start_guilders=params.start_guilders,
        start_score=params.start_score,
        reputation_points=params.reputation_points,
        canal_costs=params.canal_costs,
        canal_colours_a=params.canal_colours[0],
        canal_colours_b=params.canal_colours[1],
        hand_size=params.hand_size,
        turns_per_round=params.turns_per_round,
        space3_points=params.space3_points,
        majority_points=params.majority_points,
    )


def _params_back(m: pb.Params) -> Params:
    return Params.from_json(
        {
            "threat_markers": m.threat_markers,
            "statues": list(m.statues),
            "start_guilders": m.start_guilders,
            "start_score": m.start_score,
            "reputation_points": list(m.reputation_points),
            "canal_costs": list(m.canal_costs),
            "canal_colours": [
                [COLOURS[c] for c in m.canal_colours_a],
                [COLOURS[c] for c in m.canal_colours_b],
            ],
            "hand_size": m.hand_size,
            "turns_per_round": m.turns_per_round,
            "space3_points": m.space3_points,
            "majority_points": m.majority_points,
        }
    )


def encode_observation(obs: Observation) -> pb.Observation:
    seats = [
        pb.Seat(
            score=obs.scores[s],
            guilders=obs.guilders[s],
            reputation=obs.reputation[s],
            advanced=obs.advanced[s],
            workers=obs.workers[s],
            threats=obs.threats[s],
            canals=obs.canals[s],
            statues=obs.statues[s],
            statue_given=obs.statue_given[s],
            majorities=obs.majorities[s],
            houses=[
                pb.House(colour=h.colour, card=h.card, person=h.person, rotated=h.rotated)
                for h in obs.houses[s]
            ],
            hand_colours=obs.hand_colours[s],
            public_hand=obs.public_hands[s],
        )
        for s in range(obs.players)
    ]
    return pb.Observation(
        seat=obs.seat,
        params=_params(obs.params),
        round=obs.round,
        final_round=obs.final_round,
        phase=obs.phase,
        start=obs.start,
        lap=obs.lap,
        active=obs.active,
        turn_played=obs.turn_played,
        extra=obs.extra,
        turns=obs.turns,
        decision=obs.decision,
        decider=obs.decider,
        options=[encode_action(a) for a in obs.options],
        pile_sizes=obs.pile_sizes,
        pile_colours=obs.pile_colours,
        extra_size=obs.extra_size,
        extra_used=obs.extra_used,
        dice=obs.dice,
        discard=obs.discard,
        supply=obs.supply,
        statue_stack=obs.statue_stack,
        seats=seats,
        hand=obs.hand,
        blind_colours=obs.blind_colours,
        victim=obs.victim,
        circles=obs.circles,
        penalty=obs.penalty,
        jester_queue=obs.jester_queue,
    )


def _pair(values: Any, name: str) -> tuple[int, int]:
    if len(values) != 2:
        raise ValueError(f"observation field {name} must hold 2 numbers, not {len(values)}")
    return (values[0], values[1])


def decode_observation(m: pb.Observation) -> Observation:
    """The observation a request carries; ValueError naming a malformed field."""
    players = len(m.seats)
    if not 2 <= players <= 4:
        raise ValueError(f"observation must describe 2 to 4 seats, not {players}")
    seats = list(m.seats)
    return Observation(
        seat=m.seat,
        players=players,
        params=_params_back(m.params),
        round=m.round,
        final_round=m.final_round,
        phase=m.phase,
        start=m.start,
        lap=m.lap,
        active=m.active,
        turn_played=m.turn_played,
        extra=m.extra,
        turns=m.turns,
        decision=m.decision,
        decider=m.decider,
        options=tuple(decode_action(a, ValueError) for a in m.options),
        pile_sizes=_pair(m.pile_sizes, "pile_sizes"),
        pile_colours=_pair(m.pile_colours, "pile_colours"),
        extra_size=m.extra_size,
        extra_used=m.extra_used,
        dice=tuple(m.dice),
        discard=tuple(m.discard),
        scores=tuple(s.score for s in seats),
        guilders=tuple(s.guilders for s in seats),
        reputation=tuple(s.reputation for s in seats),
        advanced=tuple(s.advanced for s in seats),
        workers=tuple(tuple(s.workers) for s in seats),
        threats=tuple(tuple(s.threats) for s in seats),
        supply=tuple(m.supply),
        canals=tuple(tuple(s.canals) for s in seats),
        statues=tuple(tuple(s.statues) for s in seats),
        statue_given=tuple(tuple(s.statue_given) for s in seats),
        statue_stack=tuple(m.statue_stack),
        majorities=tuple(tuple(s.majorities) for s in seats),
        houses=tuple(tuple(House(h.colour, h.card, h.person, h.rotated) for h in s.houses) for s in seats),
        hand_colours=tuple(tuple(s.hand_colours) for s in seats),
        public_hands=tuple(tuple(s.public_hand) for s in seats),
        hand=tuple(m.hand),
        blind_colours=tuple(m.blind_colours),
        victim=m.victim,
        circles=tuple(m.circles),
        penalty=m.penalty,
        jester_queue=tuple(m.jester_queue),
    )
