"""Typed actions, one class per decision (and one for a chance outcome).

Squares are indices ``row * 7 + col``; sets of squares and sets of dice are bit
masks (bit ``i`` = square ``i`` or die ``i``). Use :func:`board.square` and
:func:`board.mask_of` to build them readably.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import mask_of, squares_of
from .pieces import Person, Symbol


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance outcome: the faces of the dice being rolled, lowest die index first."""

    faces: tuple[Symbol, ...]


@dataclass(frozen=True, slots=True)
class Keep:
    """After roll 1 or 2: which dice to roll again (bit mask); 0 stops rolling."""

    reroll: int = 0


@dataclass(frozen=True, slots=True)
class Choose:
    """The one symbol to score this turn (never swords)."""

    symbol: Symbol


@dataclass(frozen=True, slots=True)
class Rotate:
    """Dice to turn to the chosen symbol, 2 coins each (bit mask; 0 = none)."""

    dice: int = 0


@dataclass(frozen=True, slots=True)
class PlaceLogs:
    """Deliver ``count`` logs (one per die used) for 2 coins."""

    count: int


@dataclass(frozen=True, slots=True)
class PlaceCrates:
    """Crates on these spaces (one per die used), one orthogonally connected group."""

    spaces: int


@dataclass(frozen=True, slots=True)
class PlaceWalls:
    """Walls on these outer spaces (one per die used)."""

    spaces: int


@dataclass(frozen=True, slots=True)
class PlaceChurch:
    """One church of ``size`` (= dice used) on ``space``."""

    space: int
    size: int


@dataclass(frozen=True, slots=True)
class PlacePerson:
    """A person on ``space`` (dice used = its level); an architect also builds ``houses``.

    Also the answer to a bonus-person decision, where no dice are used.
    """

    person: Person
    space: int
    houses: int = 0


Place = PlaceLogs | PlaceCrates | PlaceWalls | PlaceChurch | PlacePerson
Action = Keep | Choose | Rotate | Place
Step = Action | Roll


def step_to_json(step: Step) -> dict[str, Any]:
    """Plain-data form of an action or chance outcome (a replay is a list of these)."""
    match step:
        case Roll(faces):
            return {"type": "roll", "faces": [int(f) for f in faces]}
        case Keep(reroll):
            return {"type": "keep", "reroll": reroll}
        case Choose(symbol):
            return {"type": "choose", "symbol": symbol.name.lower()}
        case Rotate(dice):
            return {"type": "rotate", "dice": dice}
        case PlaceLogs(count):
            return {"type": "place_logs", "count": count}
        case PlaceCrates(spaces):
            return {"type": "place_crates", "spaces": list(squares_of(spaces))}
        case PlaceWalls(spaces):
            return {"type": "place_walls", "spaces": list(squares_of(spaces))}
        case PlaceChurch(space, size):
            return {"type": "place_church", "space": space, "size": size}
        case PlacePerson(person, space, houses):
            return {
                "type": "place_person",
                "person": person.name.lower(),
                "space": space,
                "houses": list(squares_of(houses)),
            }
    raise TypeError(f"not a Saint Malo step: {step!r}")


def step_from_json(data: dict[str, Any]) -> Step:
    """Inverse of :func:`step_to_json`; raises ``ValueError`` on anything malformed."""
    try:
        kind = data["type"]
        if kind == "roll":
            return Roll(tuple(Symbol(int(f)) for f in data["faces"]))
        if kind == "keep":
            return Keep(int(data["reroll"]))
        if kind == "choose":
            return Choose(Symbol[str(data["symbol"]).upper()])
        if kind == "rotate":
            return Rotate(int(data["dice"]))
        if kind == "place_logs":
            return PlaceLogs(int(data["count"]))
        if kind == "place_crates":
            return PlaceCrates(mask_of(*map(int, data["spaces"])))
        if kind == "place_walls":
            return PlaceWalls(mask_of(*map(int, data["spaces"])))
        if kind == "place_church":
            return PlaceChurch(int(data["space"]), int(data["size"]))
        if kind == "place_person":
            return PlacePerson(
                Person[str(data["person"]).upper()],
                int(data["space"]),
                mask_of(*map(int, data.get("houses", []))),
            )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed Saint Malo step {data!r}: {exc}") from exc
    raise ValueError(f"unknown Saint Malo step type {kind!r}")
