"""Conversion between Cities engine objects and the ``smtourney.cities.v1`` messages.

Used on both ends of the wire: the referee encodes a seat's :class:`Observation` and
decodes the bot's reply; a bot decodes the observation and encodes its action. The
wire enums start at 1 (0 means "none"), the engine's at 0. Decoding a reply never
trusts it: anything that is not a well-formed action raises
:class:`~sdk.games.decisions.MalformedReplyError` naming the field at fault (legality
is the engine's job). Decoding a request raises ``ValueError`` the same way.
"""

from __future__ import annotations

from typing import Any

from sdk.games.cities.protocol import cities_pb2 as pb
from sdk.games.decisions import MalformedReplyError

from .actions import Deck, Draw, EducationMode, Exchange, GiveCity, GiveEvent, Pass, Play, React
from .cards import NUM_CITIES, NUM_EVENT_TYPES, Empire, EventType, Side
from .decisions import PHASE_NAMES, STAGE_NAMES, Decision, Outcome
from .observation import Observation, Pending, PlayedEvent, Resolving
from .params import SIZES, Params

__all__ = [
    "decode_draw",
    "decode_exchange",
    "decode_give_city",
    "decode_give_event",
    "decode_observation",
    "decode_play",
    "decode_play_reply",
    "decode_react",
    "encode_draw",
    "encode_exchange",
    "encode_give_city",
    "encode_give_event",
    "encode_observation",
    "encode_play",
    "encode_play_reply",
    "encode_react",
]

_Error = type[ValueError]

_EVENTS: tuple[EventType, ...] = tuple(EventType)
_EMPIRES: tuple[Empire, ...] = tuple(Empire)
_SIDES: tuple[Side, ...] = tuple(Side)
_DECKS: tuple[Deck, ...] = tuple(Deck)
_DECISIONS: tuple[Decision, ...] = tuple(Decision)
_EDUCATION: tuple[EducationMode, ...] = (EducationMode.EXCHANGE, EducationMode.DISCARD)
_SIZE_NAMES: tuple[str, ...] = tuple(SIZES)
#: Outcome kinds in the order of the wire's Effect enum (from 1).
_EFFECTS: tuple[str, ...] = (
    "take",
    "lose",
    "events",
    "discard",
    "return",
    "reveal",
    "complete",
    "wonders",
    "accept",
    "decline",
    "silence",
    "curse",
    "no_city",
    "extra_plays",
)
_EFFECT_NUMBER = {kind: number for number, kind in enumerate(_EFFECTS, 1)}
_CITY_EFFECTS = frozenset({"take", "lose"})
_COUNT_EFFECTS = frozenset({"events", "discard", "return", "extra_plays"})
#: A reply listing more events than the game has cards is no action at all.
_MAX_RETURNS = 75


# --- enums ---------------------------------------------------------------------------------------------


def _pick(values: tuple[Any, ...], number: int, field: str, what: str, error: _Error) -> Any:
    """The engine value of wire enum ``number`` (from 1) in ``values``."""
    if not 1 <= number <= len(values):
        raise error(f"field `{field}` = {number} is not {what} (1-{len(values)})")
    return values[number - 1]


def _event(number: int, field: str, error: _Error) -> EventType:
    event: EventType = _pick(_EVENTS, number, field, "an event", error)
    return event


def _optional(number: int, values: tuple[Any, ...], field: str, what: str, error: _Error) -> Any:
    """None for 0 (unset), else the engine value."""
    return None if number == 0 else _pick(values, number, field, what, error)


def _city(number: int, field: str, error: _Error) -> int:
    if not 0 <= number < NUM_CITIES:
        raise error(f"field `{field}` = {number} is not a city (0-{NUM_CITIES - 1})")
    return number


def _wire_event(event: int) -> pb.Event.ValueType:
    return pb.Event.ValueType(int(event) + 1)


def _wire_events(events: tuple[EventType, ...]) -> list[pb.Event.ValueType]:
    return [pb.Event.ValueType(int(ev) + 1) for ev in events]


def _wire_deck(deck: Deck | None) -> pb.Deck.ValueType:
    return pb.Deck.ValueType(0 if deck is None else int(deck) + 1)


def _wire_decision(decision: Decision | None) -> pb.Decision.ValueType:
    return pb.Decision.ValueType(0 if decision is None else _DECISIONS.index(decision) + 1)


# --- plays ---------------------------------------------------------------------------------------------


def encode_play(play: Play) -> pb.Play:
    """The wire form of a play with all its choices."""
    message = pb.Play(
        event=_wire_event(play.event),
        side=pb.Side.ValueType(0 if play.side is None else int(play.side) + 1),
        empire=pb.Empire.ValueType(0 if play.empire is None else int(play.empire) + 1),
        education=pb.Education.ValueType(
            0 if play.education is None else _EDUCATION.index(play.education) + 1
        ),
        returns=_wire_events(play.returns),
    )
    if play.target is not None:
        message.target = play.target
    if play.take_city is not None:
        message.take_city = play.take_city
    if play.give_city is not None:
        message.give_city = play.give_city
    return message


def decode_play(message: pb.Play, field: str = "play", error: _Error = MalformedReplyError) -> Play:
    """The play ``message`` describes; ``field`` names it in errors."""
    if message.event == 0:
        raise error(f"field `{field}.event` is unset: name the event played")
    if len(message.returns) > _MAX_RETURNS:
        raise error(f"field `{field}.returns` lists {len(message.returns)} events, more than the game has")
    return Play(
        _event(message.event, f"{field}.event", error),
        target=message.target if message.HasField("target") else None,
        side=_optional(message.side, _SIDES, f"{field}.side", "a side", error),
        empire=_optional(message.empire, _EMPIRES, f"{field}.empire", "an empire", error),
        education=_optional(message.education, _EDUCATION, f"{field}.education", "an Education mode", error),
        take_city=(
            _city(message.take_city, f"{field}.take_city", error) if message.HasField("take_city") else None
        ),
        give_city=(
            _city(message.give_city, f"{field}.give_city", error) if message.HasField("give_city") else None
        ),
        returns=tuple(_event(ev, f"{field}.returns", error) for ev in message.returns),
    )


# --- replies -------------------------------------------------------------------------------------------


def encode_draw(action: Draw, decision_id: int) -> pb.DrawReply:
    return pb.DrawReply(decision_id=decision_id, take=_wire_deck(action.take))


def decode_draw(reply: pb.DrawReply) -> Draw:
    if reply.take == 0:
        raise MalformedReplyError("field `take` is unset: take DECK_CITIES or DECK_EVENTS")
    deck: Deck = _pick(_DECKS, reply.take, "take", "a deck", MalformedReplyError)
    return Draw(deck)


def encode_play_reply(action: Pass | Play, decision_id: int) -> pb.PlayReply:
    if isinstance(action, Pass):
        return pb.PlayReply(decision_id=decision_id, pass_turn=pb.Pass())
    return pb.PlayReply(decision_id=decision_id, play=encode_play(action))


def decode_play_reply(reply: pb.PlayReply) -> Pass | Play:
    answer = reply.WhichOneof("answer")
    if answer is None:
        raise MalformedReplyError("oneof `answer` is unset: set `pass_turn` or `play`")
    if answer == "pass_turn":
        return Pass()
    return decode_play(reply.play)


def encode_react(action: React, decision_id: int) -> pb.ReactReply:
    card = pb.Event.ValueType(0) if action.card is None else _wire_event(action.card)
    return pb.ReactReply(decision_id=decision_id, card=card)


def decode_react(reply: pb.ReactReply) -> React:
    if reply.card == 0:
        return React(None)
    return React(_event(reply.card, "card", MalformedReplyError))


def encode_exchange(action: Exchange, decision_id: int) -> pb.ExchangeReply:
    return pb.ExchangeReply(decision_id=decision_id, accept=action.accept)


def decode_exchange(reply: pb.ExchangeReply) -> Exchange:
    return Exchange(reply.accept)


def encode_give_city(action: GiveCity, decision_id: int) -> pb.GiveCityReply:
    return pb.GiveCityReply(decision_id=decision_id, city=action.city)


def decode_give_city(reply: pb.GiveCityReply) -> GiveCity:
    if not reply.HasField("city"):
        raise MalformedReplyError("field `city` is unset: name the city given up")
    return GiveCity(_city(reply.city, "city", MalformedReplyError))


def encode_give_event(action: GiveEvent, decision_id: int) -> pb.GiveEventReply:
    return pb.GiveEventReply(decision_id=decision_id, event=_wire_event(action.event))


def decode_give_event(reply: pb.GiveEventReply) -> GiveEvent:
    if reply.event == 0:
        raise MalformedReplyError("field `event` is unset: name the event discarded")
    return GiveEvent(_event(reply.event, "event", MalformedReplyError))


# --- observations --------------------------------------------------------------------------------------


def _counts(counts: tuple[int, ...]) -> list[pb.EventCount]:
    return [pb.EventCount(event=_wire_event(ev), count=n) for ev, n in enumerate(counts) if n]


def _decode_counts(entries: Any, field: str) -> tuple[int, ...]:
    counts = [0] * NUM_EVENT_TYPES
    for entry in entries:
        event = _event(entry.event, f"{field}.event", ValueError)
        if entry.count == 0 or counts[event]:
            raise ValueError(f"field `{field}`: event {event.name} listed twice or with no copies")
        counts[event] = entry.count
    return tuple(counts)


def _reveals(reveals: tuple[tuple[int, EventType], ...]) -> list[pb.Reveal]:
    return [pb.Reveal(seat=seat, card=_wire_event(card)) for seat, card in reveals]


def _decode_reveals(entries: Any, field: str) -> tuple[tuple[int, EventType], ...]:
    return tuple((entry.seat, _event(entry.card, f"{field}.card", ValueError)) for entry in entries)


def _outcome(item: Outcome) -> pb.Outcome:
    message = pb.Outcome(
        effect=pb.Effect.ValueType(_EFFECT_NUMBER[item.kind]), seat=item.seat, source=item.source
    )
    if item.kind in _CITY_EFFECTS:
        message.city = item.value
    elif item.kind in _COUNT_EFFECTS:
        message.count = item.value
    elif item.kind == "reveal":
        message.card = _wire_event(item.value)
    elif item.kind == "complete":
        message.empire = pb.Empire.ValueType(item.value + 1)
    return message


def _decode_outcome(message: pb.Outcome, field: str) -> Outcome:
    kind: str = _pick(_EFFECTS, message.effect, f"{field}.effect", "an effect", ValueError)
    value = 0
    if kind in _CITY_EFFECTS:
        value = _city(message.city, f"{field}.city", ValueError)
    elif kind in _COUNT_EFFECTS:
        value = message.count
    elif kind == "reveal":
        value = int(_event(message.card, f"{field}.card", ValueError))
    elif kind == "complete":
        value = int(_pick(_EMPIRES, message.empire, f"{field}.empire", "an empire", ValueError))
    return Outcome(kind, message.seat, message.source, value)


def _played(record: PlayedEvent) -> pb.PlayedEvent:
    return pb.PlayedEvent(
        turn=record.turn,
        seat=record.seat,
        play=encode_play(record.play),
        returned=record.returned,
        revealed=_reveals(record.revealed),
        outcome=[_outcome(item) for item in record.outcome],
    )


def _decode_played(message: pb.PlayedEvent, field: str) -> PlayedEvent:
    return PlayedEvent(
        message.turn,
        message.seat,
        decode_play(message.play, f"{field}.play", ValueError),
        message.returned,
        _decode_reveals(message.revealed, f"{field}.revealed"),
        tuple(_decode_outcome(item, f"{field}.outcome") for item in message.outcome),
    )


def _resolving(res: Resolving) -> pb.Resolving:
    cities_a, left_a, cities_b, left_b = res.give
    message = pb.Resolving(
        seat=res.seat,
        play=encode_play(res.play),
        returned=res.returned,
        affected=res.affected,
        revealed=_reveals(res.revealed),
        stage=pb.Stage.ValueType(STAGE_NAMES.index(res.stage) + 1),
        step=res.step,
        cursor=res.cursor,
        give_cities_a=cities_a,
        give_left_a=left_a,
        give_cities_b=cities_b,
        give_left_b=left_b,
        give_events=res.give_events,
        lost=res.lost,
        winners=res.winners,
        outcome=[_outcome(item) for item in res.outcome],
    )
    if res.give_seat >= 0:
        message.give_seat = res.give_seat
    if res.give_to >= 0:
        message.give_to = res.give_to
    return message


def _decode_resolving(message: pb.Resolving) -> Resolving:
    field = "observation.resolving"
    stage: str = _pick(STAGE_NAMES, message.stage, f"{field}.stage", "a stage", ValueError)
    return Resolving(
        seat=message.seat,
        play=decode_play(message.play, f"{field}.play", ValueError),
        returned=message.returned,
        affected=message.affected,
        revealed=_decode_reveals(message.revealed, f"{field}.revealed"),
        stage=stage,
        step=message.step,
        cursor=message.cursor,
        give_seat=message.give_seat if message.HasField("give_seat") else -1,
        give=(message.give_cities_a, message.give_left_a, message.give_cities_b, message.give_left_b),
        give_to=message.give_to if message.HasField("give_to") else -1,
        give_events=message.give_events,
        lost=message.lost,
        winners=message.winners,
        outcome=tuple(_decode_outcome(item, f"{field}.outcome") for item in message.outcome),
    )


def _pending(pending: Pending) -> pb.Pending:
    message = pb.Pending(
        kind=_wire_decision(pending.kind),
        draw=[_wire_deck(deck) for deck in pending.draw],
        playable=_wire_events(pending.playable),
        protections=_wire_events(pending.protections),
        cities=pending.cities,
        count=pending.count,
    )
    if pending.offer is not None:
        message.offer.CopyFrom(encode_play(pending.offer))
    return message


def _decode_pending(message: pb.Pending) -> Pending:
    field = "observation.pending"
    kind: Decision = _pick(_DECISIONS, message.kind, f"{field}.kind", "a decision", ValueError)
    return Pending(
        kind,
        draw=tuple(_pick(_DECKS, deck, f"{field}.draw", "a deck", ValueError) for deck in message.draw),
        playable=tuple(_event(ev, f"{field}.playable", ValueError) for ev in message.playable),
        protections=tuple(_event(ev, f"{field}.protections", ValueError) for ev in message.protections),
        cities=message.cities,
        count=message.count,
        offer=decode_play(message.offer, f"{field}.offer", ValueError) if message.HasField("offer") else None,
    )


def encode_observation(obs: Observation) -> pb.Observation:
    """Everything ``obs`` holds, and nothing else."""
    message = pb.Observation(
        seat=obs.seat,
        players=obs.players,
        params=pb.Params(
            size=pb.Size.ValueType(_SIZE_NAMES.index(obs.params.size) + 1), max_rounds=obs.params.max_rounds
        ),
        phase=pb.Phase.ValueType(PHASE_NAMES.index(obs.phase) + 1),
        chance=_wire_deck(obs.chance),
        round=obs.round,
        turn=obs.turn,
        active=obs.active,
        plays_left=obs.plays_left,
        curse_now=obs.curse_now,
        silent_now=obs.silent_now,
        no_city_now=obs.no_city_now,
        silenced=obs.silenced,
        cursed=obs.cursed,
        no_city=obs.no_city,
        quiet=obs.quiet,
        played=obs.played,
        held=obs.held,
        done=obs.done,
        scores=obs.scores,
        hand_sizes=obs.hand_sizes,
        city_deck=obs.city_deck,
        event_deck_size=obs.event_deck_size,
        face_down=obs.face_down,
        log=[_played(record) for record in obs.log],
        waiting=_wire_decision(obs.waiting),
        hand=_counts(obs.hand),
        own_face_down=_counts(obs.own_face_down),
    )
    if obs.wonders >= 0:
        message.wonders = obs.wonders
    if obs.resolving is not None:
        message.resolving.CopyFrom(_resolving(obs.resolving))
    if obs.waiting_seat >= 0:
        message.waiting_seat = obs.waiting_seat
    if obs.pending is not None:
        message.pending.CopyFrom(_pending(obs.pending))
    return message


def decode_observation(message: pb.Observation) -> Observation:
    """The :class:`Observation` a request carries; raises ``ValueError`` naming a malformed field."""
    field = "observation"
    size: str = _pick(_SIZE_NAMES, message.params.size, f"{field}.params.size", "a size", ValueError)
    phase: str = _pick(PHASE_NAMES, message.phase, f"{field}.phase", "a phase", ValueError)
    return Observation(
        seat=message.seat,
        players=message.players,
        params=Params(size=size, max_rounds=message.params.max_rounds),
        phase=phase,
        chance=_optional(message.chance, _DECKS, f"{field}.chance", "a deck", ValueError),
        round=message.round,
        turn=message.turn,
        active=message.active,
        plays_left=message.plays_left,
        curse_now=message.curse_now,
        silent_now=message.silent_now,
        no_city_now=message.no_city_now,
        silenced=tuple(message.silenced),
        cursed=message.cursed,
        no_city=message.no_city,
        quiet=message.quiet,
        played=message.played,
        held=tuple(message.held),
        done=tuple(message.done),
        wonders=message.wonders if message.HasField("wonders") else -1,
        scores=tuple(message.scores),
        hand_sizes=tuple(message.hand_sizes),
        city_deck=message.city_deck,
        event_deck_size=message.event_deck_size,
        face_down=tuple(message.face_down),
        log=tuple(_decode_played(record, f"{field}.log") for record in message.log),
        resolving=_decode_resolving(message.resolving) if message.HasField("resolving") else None,
        waiting=_optional(message.waiting, _DECISIONS, f"{field}.waiting", "a decision", ValueError),
        waiting_seat=message.waiting_seat if message.HasField("waiting_seat") else -1,
        hand=_decode_counts(message.hand, f"{field}.hand"),
        own_face_down=_decode_counts(message.own_face_down, f"{field}.own_face_down"),
        pending=_decode_pending(message.pending) if message.HasField("pending") else None,
    )
