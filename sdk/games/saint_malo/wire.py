"""Conversion between engine objects and the ``smtourney.saint_malo.v1`` messages.

Used on both ends of the wire: the referee encodes observations and decodes
replies; a bot decodes observations into a :class:`State` (its forward model)
and encodes its action. Decoding a reply never trusts it: anything that is not a
well-formed action raises :class:`MalformedReplyError`; legality is the
engine's job.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sdk.games.decisions import MalformedReplyError
from sdk.games.saint_malo.protocol import saint_malo_pb2 as pb

from .actions import (
    Choose,
    Keep,
    Place,
    PlaceChurch,
    PlaceCrates,
    PlaceLogs,
    PlacePerson,
    PlaceWalls,
    Rotate,
)
from .city import City
from .params import SIDE_BONUS_KINDS, Params
from .pieces import Decision, Person, ScorePart, Symbol
from .state import _PHASE_NAMES, PirateAttack, State

# Wire enums start at 1 (0 means unset); engine enums start at 0.
_WIRE_SIDE_BONUS = {kind: index + 1 for index, kind in enumerate(SIDE_BONUS_KINDS)}
_PHASE_OF = {decision: _PHASE_NAMES.index(decision.value) for decision in Decision}
_IN_PLAY_PARTS = ScorePart.FULL_CITY
_PARTS_NOT_IN_PLAY = (0,) * (len(ScorePart) - _IN_PLAY_PARTS)
"""The score parts only final scoring fills, which no observation carries."""


def encode_params(params: Params) -> pb.Params:
    return pb.Params(
        start_crates=params.start_crates,
        side_bonuses=[pb.SideBonus.ValueType(_WIRE_SIDE_BONUS[b]) for b in params.side_bonuses],
        cannons=params.cannons,
    )


def decode_params(message: pb.Params) -> Params:
    return _decode_params(tuple(message.start_crates), tuple(message.side_bonuses), message.cannons)


@lru_cache(maxsize=16)
def _decode_params(start_crates: tuple[int, ...], side_bonuses: tuple[int, ...], cannons: int) -> Params:
    """Cached: every request of a match carries the same params (and Params is frozen)."""
    return Params(
        start_crates=start_crates,
        side_bonuses=tuple(SIDE_BONUS_KINDS[b - 1] for b in side_bonuses),
        cannons=cannons,
    )


@lru_cache(maxsize=16)
def _params_message(params: Params) -> pb.Params:
    """Cached; only ever copied from, never handed out (messages are mutable)."""
    return encode_params(params)


def encode_city(city: City) -> pb.City:
    return pb.City(**_city_fields(city))


def _city_fields(city: City) -> dict[str, Any]:
    return {
        "walls": city.walls,
        "crates": city.crates,
        "houses": city.houses,
        "churches": city.churches,
        "persons": city.persons,
        "coins": city.coins,
        "logs": city.logs,
        "vp": city.vp,
        "cannons_lost": city.cannons_lost,
        "vp_parts": city.parts[:_IN_PLAY_PARTS],
    }


def decode_city(message: pb.City) -> City:
    city = City.__new__(City)
    walls, crates, houses = message.walls, message.crates, message.houses
    city.walls, city.crates, city.houses = walls, crates, houses
    churches = city.churches = tuple(message.churches)
    persons = city.persons = tuple(message.persons)
    filled = walls | crates | houses
    for mask in churches:
        filled |= mask
    for mask in persons:
        filled |= mask
    city.filled = filled
    city.coins, city.logs, city.vp = message.coins, message.logs, message.vp
    city.cannons_lost = message.cannons_lost
    city.parts = [*message.vp_parts, *_PARTS_NOT_IN_PLAY]
    return city


def encode_observation(state: State) -> pb.Observation:
    """The whole public state (what every seat may see)."""
    message = pb.Observation()
    fill_observation(message, state)
    return message


def fill_observation(message: pb.Observation, state: State) -> None:
    """Write the observation of ``state`` into an empty ``message`` in place.

    The same bytes as :func:`encode_observation`, without building every
    sub-message apart and copying it in (a request is built once per decision).
    """
    message.players = state.num_players
    message.turn = state.turn
    message.current = state.current
    add_city = message.cities.add
    for city in state.cities:
        add_city(**_city_fields(city))
    message.dice.extend([pb.Symbol.ValueType(d + 1) for d in state.dice])
    message.rolls = state.rolls
    message.rerolled = state.to_roll
    message.rotated = state.rotated
    message.chosen = pb.Symbol.ValueType(state.chosen + 1)
    message.bonus_persons = state.bonus_persons
    message.pirate_boxes = state.pirate_boxes
    add_attack = message.attacks.add
    for attack in state.attacks:
        add_attack(turn=attack.turn, strength=attack.strength, defences=attack.defences)
    message.ending = state.ending
    message.params.CopyFrom(_params_message(state.params))


def decode_observation(message: pb.Observation, decision: Decision) -> State:
    """The engine state a decision request describes (a bot's forward model)."""
    state = State.__new__(State)
    state.params = decode_params(message.params)
    state.num_players = message.players
    state.cities = [decode_city(c) for c in message.cities]
    state.current, state.turn = message.current, message.turn
    state.phase = _PHASE_OF[decision]
    state.dice = [d - 1 for d in message.dice]
    state.rolls, state.to_roll, state.rotated = message.rolls, message.rerolled, message.rotated
    state.chosen = message.chosen - 1
    state.bonus_persons = message.bonus_persons
    state.pirate_boxes = message.pirate_boxes
    state.attacks = tuple(PirateAttack(a.turn, a.strength, tuple(a.defences)) for a in message.attacks)
    state.ending = message.ending
    return state


def encode_person(action: PlacePerson) -> pb.PersonPlacement:
    return pb.PersonPlacement(
        person=pb.Person.ValueType(action.person + 1),
        space=action.space,
        houses=action.houses,
    )


def encode_placement(action: Place) -> dict[str, Any]:
    """The ``placement`` oneof of a PlaceReply, as keyword arguments."""
    if isinstance(action, PlaceLogs):
        return {"logs": pb.Logs(count=action.count)}
    if isinstance(action, PlaceCrates):
        return {"crates": pb.Crates(spaces=action.spaces)}
    if isinstance(action, PlaceWalls):
        return {"walls": pb.Walls(spaces=action.spaces)}
    if isinstance(action, PlaceChurch):
        return {"church": pb.Church(space=action.space, size=action.size)}
    return {"person": encode_person(action)}


def _symbol(value: int) -> Symbol:
    if not 1 <= value <= len(Symbol):
        raise MalformedReplyError(f"symbol {value} is not a die symbol")
    return Symbol(value - 1)


def decode_person(message: pb.PersonPlacement) -> PlacePerson:
    if not 1 <= message.person <= len(Person):
        raise MalformedReplyError(f"person {message.person} is not a person type (1-7)")
    return PlacePerson(Person(message.person - 1), message.space, message.houses)


def decode_keep(reply: pb.KeepReply) -> Keep:
    return Keep(reply.reroll)


def decode_choose(reply: pb.ChooseReply) -> Choose:
    return Choose(_symbol(reply.symbol))


def decode_rotate(reply: pb.RotateReply) -> Rotate:
    return Rotate(reply.dice)


def decode_bonus_person(reply: pb.PlaceBonusPersonReply) -> PlacePerson:
    if not reply.HasField("person"):
        raise MalformedReplyError("the reply places no person (field `person`)")
    return decode_person(reply.person)


def decode_place(reply: pb.PlaceReply) -> Place:
    """The placement a reply carries; raises :class:`MalformedReplyError` if it carries none."""
    kind = reply.WhichOneof("placement")
    if kind is None:
        raise MalformedReplyError("the reply holds no placement (oneof `placement` unset)")
    if kind == "logs":
        return PlaceLogs(reply.logs.count)
    if kind == "crates":
        return PlaceCrates(reply.crates.spaces)
    if kind == "walls":
        return PlaceWalls(reply.walls.spaces)
    if kind == "church":
        return PlaceChurch(reply.church.space, reply.church.size)
    return decode_person(reply.person)
