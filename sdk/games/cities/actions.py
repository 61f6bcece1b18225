"""Typed actions, one class per decision, and the chance outcome (a deck shuffle).

Cities are ids 0..53 (see :data:`cards.CITIES`); events are :class:`EventType` values.
Every choice the player of an event makes is part of its :class:`Play` (C10); choices
made later by other seats are their own decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

from .cards import NUM_CITIES, Empire, EventType, Side


class Deck(IntEnum):
    """The two decks."""

    CITY = 0
    EVENT = 1


#: What a cursed player takes at the start of their turn: the top city or the top event.
DrawChoice = Deck


class EducationMode(StrEnum):
    """Education either swaps events with the deck or makes an opponent discard."""

    EXCHANGE = "exchange"
    DISCARD = "discard"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance outcome: the new order of the whole deck, top card first."""

    deck: Deck
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """A cursed player's one card at the start of the turn (C11 Curse)."""

    take: DrawChoice


@dataclass(frozen=True, slots=True)
class Pass:
    """Play no (more) event this turn."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``event`` with every choice its player makes (C10).

    ``target``: the opponent named. ``take_city``: the city taken (Attack, Anger of the
    gods, Rebellion's first city, Loss of influence, and the opponent's city in Trade and
    Friendly exchange). ``give_city``: the player's own city in Trade and Friendly exchange.
    ``returns``: the events given back in Education's exchange mode (kept sorted).
    """

    event: EventType
    target: int | None = None
    side: Side | None = None
    empire: Empire | None = None
    education: EducationMode | None = None
    take_city: int | None = None
    give_city: int | None = None
    returns: tuple[EventType, ...] = ()

    def __post_init__(self) -> None:
        if self.returns and any(a > b for a, b in zip(self.returns, self.returns[1:], strict=False)):
            object.__setattr__(self, "returns", tuple(sorted(self.returns)))


@dataclass(frozen=True, slots=True)
class React:
    """Reveal a protection card against the announced event, or ``None`` to let it be."""

    card: EventType | None = None


@dataclass(frozen=True, slots=True)
class Exchange:
    """Accept or decline the Friendly exchange offered to this seat."""

    accept: bool


@dataclass(frozen=True, slots=True)
class GiveCity:
    """Give up one of your own cities (the event being resolved says where it goes)."""

    city: int


@dataclass(frozen=True, slots=True)
class GiveEvent:
    """Give up one of your own event cards, face down."""

    event: EventType


Action = Draw | Pass | Play | React | Exchange | GiveCity | GiveEvent
Step = Action | Shuffle


def _event_name(ev: int) -> str:
    return EventType(ev).name.lower()


def _event(value: Any) -> EventType:
    if not isinstance(value, str):
        raise ValueError(f"an event is named by a string, not {value!r}")
    return EventType[value.upper()]


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer, not {value!r}")
    return value


def _city(value: Any) -> int:
    city = _int(value, "a city")
    if not 0 <= city < NUM_CITIES:
        raise ValueError(f"no city {city}")
    return city


_PLAY_FIELDS = {"type", "event", "target", "side", "empire", "education", "take_city", "give_city", "returns"}


def _play_to_json(play: Play) -> dict[str, Any]:
    data: dict[str, Any] = {"type": "play", "event": _event_name(play.event)}
    if play.target is not None:
        data["target"] = play.target
    if play.side is not None:
        data["side"] = Side(play.side).name.lower()
    if play.empire is not None:
        data["empire"] = play.empire
    if play.education is not None:
        data["education"] = str(play.education)
    if play.take_city is not None:
        data["take_city"] = play.take_city
    if play.give_city is not None:
        data["give_city"] = play.give_city
    if play.returns:
        data["returns"] = [_event_name(ev) for ev in play.returns]
    return data


def _play_from_json(data: dict[str, Any]) -> Play:
    unknown = set(data) - _PLAY_FIELDS
    if unknown:
        raise ValueError(f"unknown play field(s) {sorted(unknown)}")

    def optional(key: str, convert: Any) -> Any:
        value = data.get(key)
        return None if value is None else convert(value)

    returns = data.get("returns", [])
    if not isinstance(returns, list):
        raise ValueError("returns must be a list of events")
    return Play(
        _event(data["event"]),
        target=optional("target", lambda v: _int(v, "target")),
        side=optional("side", lambda v: Side[str(v).upper()]),
        empire=optional("empire", lambda v: Empire(_int(v, "empire"))),
        education=optional("education", EducationMode),
        take_city=optional("take_city", _city),
        give_city=optional("give_city", _city),
        returns=tuple(_event(ev) for ev in returns),
    )


def step_to_json(step: Step) -> dict[str, Any]:
    """Plain-data form of an action or chance outcome (a replay is a list of these)."""
    match step:
        case Shuffle(deck, order):
            cards: list[Any] = list(order) if deck == Deck.CITY else [_event_name(ev) for ev in order]
            return {"type": "shuffle", "deck": Deck(deck).name.lower(), "order": cards}
        case Draw(take):
            return {"type": "draw", "take": Deck(take).name.lower()}
        case Pass():
            return {"type": "pass"}
        case Play():
            return _play_to_json(step)
        case React(card):
            return {"type": "react", "card": None if card is None else _event_name(card)}
        case Exchange(accept):
            return {"type": "exchange", "accept": bool(accept)}
        case GiveCity(city):
            return {"type": "give_city", "city": city}
        case GiveEvent(event):
            return {"type": "give_event", "event": _event_name(event)}
    raise TypeError(f"not a Cities step: {step!r}")


def step_from_json(data: dict[str, Any]) -> Step:
    """Inverse of :func:`step_to_json`; raises ``ValueError`` on anything malformed."""
    try:
        kind = data["type"]
        if kind == "shuffle":
            deck = Deck[str(data["deck"]).upper()]
            order = data["order"]
            if not isinstance(order, list):
                raise ValueError("order must be a list")
            if deck == Deck.CITY:
                return Shuffle(deck, tuple(_city(c) for c in order))
            return Shuffle(deck, tuple(_event(ev) for ev in order))
        if kind == "draw":
            return Draw(Deck[str(data["take"]).upper()])
        if kind == "pass":
            return Pass()
        if kind == "play":
            return _play_from_json(data)
        if kind == "react":
            card = data["card"]
            return React(None if card is None else _event(card))
        if kind == "exchange":
            accept = data["accept"]
            if not isinstance(accept, bool):
                raise ValueError(f"accept must be true or false, not {accept!r}")
            return Exchange(accept)
        if kind == "give_city":
            return GiveCity(_city(data["city"]))
        if kind == "give_event":
            return GiveEvent(_event(data["event"]))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"malformed Cities step {data!r}: {exc}") from exc
    raise ValueError(f"unknown Cities step type {kind!r}")
