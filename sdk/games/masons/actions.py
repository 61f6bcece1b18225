"""Steps of a Masons game: the chance outcomes the referee draws and the actions seats choose.

Card kinds are numbers into :data:`~sdk.games.masons.cards.CARDS`; colours are numbers into
``TOWER_COLOURS`` / ``HOUSE_COLOURS``; ``-1`` means "no piece".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sdk.games.errors import IllegalActionError


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: a new draw pile, top card first (the deal at the start, or a reshuffle of the discards)."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the tower die's colour and the two house dice (5 is the free-choice face)."""

    tower: int
    houses: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Wall:
    """Build a wall on ``line``."""

    line: int


@dataclass(frozen=True, slots=True)
class Towers:
    """The tower colours placed on the wall's two end points (lower point first; -1: none placed)."""

    colours: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Houses:
    """The house colour placed on each space beside the wall (ascending space number; -1: none)."""

    colours: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Connect:
    """Join the new city to completed city ``city`` (its index), or to none (``None``)."""

    city: int | None


@dataclass(frozen=True, slots=True)
class Score:
    """Play 1 or 2 ``cards`` for points, or with ``discard`` throw away one card and draw two."""

    cards: tuple[int, ...]
    discard: bool = False


@dataclass(frozen=True, slots=True)
class Swap:
    """The cards (kinds, ascending, repeats allowed) to discard and replace; empty: keep the hand."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FinalScore:
    """Final scoring: play 1 or 2 ``cards`` naming completed ``city``, or pass (no cards)."""

    city: int | None
    cards: tuple[int, ...]


Action = Wall | Towers | Houses | Connect | Score | Swap | FinalScore
Step = Shuffle | Roll | Action
STEP_RULE = "M10 steps"


def step_to_json(step: Step) -> dict[str, Any]:
    match step:
        case Shuffle(order):
            return {"kind": "shuffle", "order": list(order)}
        case Roll(tower, houses):
            return {"kind": "roll", "tower": tower, "houses": list(houses)}
        case Wall(line):
            return {"kind": "wall", "line": line}
        case Towers(colours):
            return {"kind": "towers", "colours": list(colours)}
        case Houses(colours):
            return {"kind": "houses", "colours": list(colours)}
        case Connect(city):
            return {"kind": "connect_city", "city": city}
        case Score(cards, discard):
            return {"kind": "score_cards", "cards": list(cards), "discard": discard}
        case Swap(cards):
            return {"kind": "swap", "cards": list(cards)}
        case FinalScore(city, cards):
            return {"kind": "final_score", "city": city, "cards": list(cards)}
    raise TypeError(f"not a Masons step: {step!r}")


def step_from_json(data: dict[str, Any]) -> Step:
    try:
        kind = data["kind"]
        if kind == "shuffle":
            return Shuffle(tuple(int(c) for c in data["order"]))
        if kind == "roll":
            first, second = (int(h) for h in data["houses"])
            return Roll(int(data["tower"]), (first, second))
        if kind == "wall":
            return Wall(int(data["line"]))
        if kind == "towers":
            low, high = (int(c) for c in data["colours"])
            return Towers((low, high))
        if kind == "houses":
            return Houses(tuple(int(c) for c in data["colours"]))
        if kind == "connect_city":
            return Connect(None if data["city"] is None else int(data["city"]))
        if kind == "score_cards":
            return Score(tuple(int(c) for c in data["cards"]), bool(data["discard"]))
        if kind == "swap":
            return Swap(tuple(int(c) for c in data["cards"]))
        if kind == "final_score":
            return FinalScore(
                None if data["city"] is None else int(data["city"]), tuple(int(c) for c in data["cards"])
            )
    except (KeyError, TypeError, ValueError) as error:
        raise IllegalActionError(STEP_RULE, f"malformed step {data!r}: {error}") from None
    raise IllegalActionError(STEP_RULE, f"unknown step kind {kind!r}")
