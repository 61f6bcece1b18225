"""Cities on the wire: the ``smtourney.cities.v1`` messages, derived from the engine's values.

Used on both ends: the referee encodes a seat's :class:`Observation` and decodes the bot's
reply; a bot decodes the observation and encodes its action. Only where the wire differs is
anything written here: an outcome puts its value in the field its kind names, a hand is a list
of event counts, cities are numbers below 54, a few engine values of -1 are absent fields and
the engine's names of phases, stages and sizes are wire enums. Decoding never trusts its input:
an error names the field at fault (:class:`~sdk.games.decisions.MalformedReplyError` for a
reply, ``ValueError`` for a request); legality is the engine's job.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from sdk.games.cities.protocol import cities_pb2 as pb
from sdk.games.codec import Bound, Error, MessageCodec, Spread, join

from .actions import Draw, Exchange, GiveCity, GiveEvent, Pass, Play, React
from .cards import NUM_CITIES, NUM_EVENT_TYPES, Empire, EventType
from .observation import Observation, Resolving
from .params import SIZES, Params
from .phases import PHASE_NAMES, STAGE_NAMES, Outcome

__all__ = ["ACTIONS", "CODECS", "OBSERVATION", "decode_observation", "encode_observation"]

CITY = Bound(NUM_CITIES, "city")
#: A reply listing more events than the game has cards is no action at all.
MAX_RETURNS = 75
#: Outcome kinds in the order of the wire's Effect enum (from 1), and the field holding each one's value.
EFFECTS: dict[str, str | None] = {
    "take": "city",
    "lose": "city",
    "events": "count",
    "discard": "count",
    "return": "count",
    "reveal": "card",
    "complete": "empire",
    "wonders": None,
    "accept": None,
    "decline": None,
    "silence": None,
    "curse": None,
    "no_city": None,
    "extra_plays": "count",
}
_KINDS = tuple(EFFECTS)
_ENUM_VALUES = {"card": len(EventType), "empire": len(Empire)}


def _number(value: int, limit: int, path: str, error: Error) -> int:
    if not 1 <= value <= limit:
        raise error(f"field `{path}` = {value} is out of range (1-{limit})")
    return value


class _Outcome:
    """An outcome's value goes to ``city``, ``count``, ``card`` or ``empire`` by its kind."""

    message_type = pb.Outcome

    def fill(self, message: Any, item: Outcome) -> None:
        message.effect = _KINDS.index(item.kind) + 1
        message.seat, message.source = item.seat, item.source
        field = EFFECTS[item.kind]
        if field is not None:
            setattr(message, field, item.value + 1 if field in _ENUM_VALUES else item.value)

    def decode(self, message: Any, path: str, error: Error) -> Outcome:
        kind = _KINDS[_number(message.effect, len(_KINDS), join(path, "effect"), error) - 1]
        field, value = EFFECTS[kind], 0
        if field == "city":
            value = CITY.check(message.city, join(path, "city"), error)
        elif field in _ENUM_VALUES:
            value = _number(getattr(message, field), _ENUM_VALUES[field], join(path, field), error) - 1
        elif field is not None:
            value = getattr(message, field)
        return Outcome(kind, message.seat, message.source, value)


class _Counts:
    """Copies per event kind in the engine, one ``EventCount`` per kind held on the wire."""

    def __init__(self, name: str) -> None:
        self.name, self.wire = name, (name,)

    def put(self, message: Any, obj: Observation) -> None:
        entries = getattr(message, self.name)
        for event, count in enumerate(getattr(obj, self.name)):
            if count:
                entries.add(event=event + 1, count=count)

    def get(self, message: Any, path: str, error: Error, out: dict[str, Any]) -> None:
        here = join(path, self.name)
        counts = [0] * NUM_EVENT_TYPES
        for entry in getattr(message, self.name):
            event = _number(entry.event, NUM_EVENT_TYPES, join(here, "event"), error) - 1
            if entry.count == 0 or counts[event]:
                raise error(f"field `{here}`: event {EventType(event).name} listed twice or with no copies")
            counts[event] = entry.count
        out[self.name] = tuple(counts)


PLAY = MessageCodec(
    pb.Play, Play, bounds={"take_city": CITY, "give_city": CITY}, lengths={"returns": (0, MAX_RETURNS)}
)
CODECS: dict[Any, Any] = {
    pb.Play: PLAY,
    pb.Outcome: _Outcome(),
    pb.Params: MessageCodec(pb.Params, Params, enums={"size": tuple(SIZES)}),
}
CODECS[pb.Resolving] = MessageCodec(
    pb.Resolving,
    Resolving,
    enums={"stage": STAGE_NAMES},
    absent={"give_seat": -1, "give_to": -1},
    fields=[
        Spread(
            pb.Resolving, Resolving, "give", ("give_cities_a", "give_left_a", "give_cities_b", "give_left_b")
        )
    ],
    codecs=CODECS,
)
OBSERVATION = MessageCodec(
    pb.Observation,
    Observation,
    enums={"phase": PHASE_NAMES},
    absent={"wonders": -1, "waiting_seat": -1},
    fields=[_Counts("hand"), _Counts("own_face_down")],
    codecs=CODECS,
)
ACTIONS: dict[str, Any] = {
    "draw": Draw,
    "play": Pass | Play,
    "react": React,
    "exchange": Exchange,
    "give_city": MessageCodec(pb.GiveCityReply, GiveCity, skip=("decision_id",), bounds={"city": CITY}),
    "give_event": GiveEvent,
}


encode_observation = OBSERVATION.encode
#: The observation a request carries; ValueError naming a malformed field (``observation.phase``).
decode_observation = partial(OBSERVATION.decode, path="observation")
