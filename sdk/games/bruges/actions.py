"""Steps of a game: the chance outcomes the referee draws and the actions seats choose (B24).

Every step is a small frozen value, comparable and hashable, with a JSON form for the record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import card_from_id, card_id

#: Actions of B15, numbered as in the rulebook.
WORKERS, GUILDERS, THREAT, CANAL, HOUSE, RECRUIT = range(1, 7)
ACTION_NAMES = {1: "workers", 2: "guilders", 3: "threat", 4: "canal", 5: "house", 6: "recruit"}
#: Fire options (B12).
FIRE_HOUSE, FIRE_EMPTY, FIRE_SECTION_A, FIRE_SECTION_B = range(4)
FIRE_NAMES = ("house", "empty", "section_a", "section_b")


@dataclass(frozen=True, slots=True)
class Expose:
    """Chance: the card that becomes the top of draw pile ``pile`` (0 or 1) (B4)."""

    pile: int
    card: int


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the five dice, in colour order (B4, B11)."""

    dice: tuple[int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class DrawPile:
    """``draw_pile``: draw the top card of pile 0 or 1 (B9)."""

    pile: int


@dataclass(frozen=True, slots=True)
class PenaltyOrder:
    """``penalty_order``: the pending colour whose penalty resolves next (B12)."""

    colour: int


@dataclass(frozen=True, slots=True)
class CancelPenalty:
    """``cancel_penalty``: return a worker of the penalty's colour to cancel it (Knight), or not."""

    cancel: bool


@dataclass(frozen=True, slots=True)
class PlagueDiscard:
    """``plague_discard``: the person card of your play area to discard."""

    card: int


@dataclass(frozen=True, slots=True)
class FireChoice:
    """``fire_choice``: what Fire takes; ``card`` is the person X for ``FIRE_HOUSE``, else -1."""

    option: int
    card: int = -1


@dataclass(frozen=True, slots=True)
class Advance:
    """``advance_reputation``: pay the price and move up one step, or not (B13)."""

    advance: bool


@dataclass(frozen=True, slots=True)
class Activate:
    """Turn option: activate person card ``card``; ``a``/``b`` its arguments (B24 7), -1 when unused."""

    card: int
    a: int = -1
    b: int = -1


@dataclass(frozen=True, slots=True)
class Play:
    """Turn or extra-play option: play ``card`` for ``action`` (1-6); ``arg``: the section (IV) or
    the worker colour (V), else -1."""

    card: int
    action: int
    arg: int = -1


@dataclass(frozen=True, slots=True)
class End:
    """Turn option: end the turn."""


Action = (
    DrawPile | PenaltyOrder | CancelPenalty | PlagueDiscard | FireChoice | Advance | Activate | Play | End
)
Step = Expose | Roll | Action


def step_to_json(step: Step) -> dict[str, Any]:
    match step:
        case Expose(pile, card):
            return {"type": "expose", "pile": pile, "card": card_id(card)}
        case Roll(dice):
            return {"type": "roll", "dice": list(dice)}
        case DrawPile(pile):
            return {"type": "draw_pile", "pile": pile}
        case PenaltyOrder(colour):
            return {"type": "penalty_order", "colour": colour}
        case CancelPenalty(cancel):
            return {"type": "cancel_penalty", "cancel": cancel}
        case PlagueDiscard(card):
            return {"type": "plague_discard", "card": card_id(card)}
        case FireChoice(option, card):
            data: dict[str, Any] = {"type": "fire_choice", "option": FIRE_NAMES[option]}
            if card >= 0:
                data["card"] = card_id(card)
            return data
        case Advance(advance):
            return {"type": "advance", "advance": advance}
        case Activate(card, a, b):
            return {"type": "activate", "card": card_id(card), "a": a, "b": b}
        case Play(card, action, arg):
            return {"type": "play", "card": card_id(card), "action": action, "arg": arg}
        case End():
            return {"type": "end"}
    raise TypeError(f"not a step: {step!r}")


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"step field {key!r} must be an integer, not {value!r}")
    return value


def _bool(data: dict[str, Any], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise ValueError(f"step field {key!r} must be true or false, not {value!r}")
    return value


def step_from_json(data: dict[str, Any]) -> Step:
    """Inverse of :func:`step_to_json`; ValueError naming what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"a step must be a mapping, not {data!r}")
    kind = data.get("type")
    if kind == "expose":
        return Expose(_int(data, "pile"), card_from_id(data.get("card", "")))
    if kind == "roll":
        dice = data.get("dice")
        if not isinstance(dice, list) or len(dice) != 5 or any(type(d) is not int for d in dice):
            raise ValueError(f"roll dice must be 5 integers, not {dice!r}")
        return Roll((dice[0], dice[1], dice[2], dice[3], dice[4]))
    if kind == "draw_pile":
        return DrawPile(_int(data, "pile"))
    if kind == "penalty_order":
        return PenaltyOrder(_int(data, "colour"))
    if kind == "cancel_penalty":
        return CancelPenalty(_bool(data, "cancel"))
    if kind == "plague_discard":
        return PlagueDiscard(card_from_id(data.get("card", "")))
    if kind == "fire_choice":
        option = data.get("option")
        if option not in FIRE_NAMES:
            raise ValueError(f"fire option must be one of {', '.join(FIRE_NAMES)}, not {option!r}")
        card = card_from_id(data["card"]) if "card" in data else -1
        return FireChoice(FIRE_NAMES.index(option), card)
    if kind == "advance":
        return Advance(_bool(data, "advance"))
    if kind == "activate":
        return Activate(card_from_id(data.get("card", "")), _int(data, "a"), _int(data, "b"))
    if kind == "play":
        return Play(card_from_id(data.get("card", "")), _int(data, "action"), _int(data, "arg"))
    if kind == "end":
        return End()
    raise ValueError(f"unknown step type {kind!r}")
