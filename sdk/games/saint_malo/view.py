"""What replay viewers and terminals show: a plain-data picture of a position, the same as text
pictures of cities and the pirate track, and steps in words.

A view holds only what is on the table (no deck, no seed), in a compact form a
browser can draw without knowing the engine: each city is a 49-character string
with one code per square, row by row from the top left (see :data:`CELL_CODES`).
"""

from __future__ import annotations

from typing import Any

from sdk.games.score_rows import rows_json

from .actions import (
    Choose,
    Keep,
    PlaceChurch,
    PlaceCrates,
    PlaceLogs,
    PlacePerson,
    PlaceWalls,
    Roll,
    Rotate,
    Step,
)
from .board import NUM_SQUARES, SIDE_MASKS, SIDE_NAMES, SIZE, TOWERS, row_col, square, squares_of
from .city import City
from .pieces import NUM_DICE, PIRATE_STRENGTHS, Person, Symbol
from .scoring import score_rows
from .state import PirateAttack, State

#: The nouns of the game's rules: no code outside the game may use them (a conformance test checks).
NOUNS = (
    "dice", "pirate", "pirates", "crate", "crates", "wall", "walls", "church", "churches",
    "cannon", "cannons", "citizen", "juggler", "noble", "architect", "merchant", "priest", "soldier",
)  # fmt: skip


#: One character per square kind; churches show their size, people their initial.
CELL_CODES: dict[str, str] = {
    "empty": ".",
    "tower": "T",
    "wall": "W",
    "crate": "X",
    "house": "H",
    **{f"church{size}": str(size) for size in range(1, 6)},
    **{p.name.lower(): p.name[0].lower() for p in Person},
}


def square_name(space: int) -> str:
    """Chess-like name of a square: column a-g from the left, row 1-7 from the top."""
    row, col = row_col(space)
    return f"{'abcdefg'[col]}{row + 1}"


def _cells(city: City) -> str:
    items = city.items()
    codes = []
    for space in range(NUM_SQUARES):
        if TOWERS >> space & 1:
            codes.append(CELL_CODES["tower"])
        else:
            codes.append(CELL_CODES[items.get(space, "empty")])
    return "".join(codes)


def _sides(city: City) -> list[str]:
    destroyed, complete = city.destroyed_sides, city.complete_sides
    sides = []
    for side, mask in enumerate(SIDE_MASKS):
        if complete >> side & 1:
            sides.append("complete")
        elif destroyed >> side & 1:
            sides.append("destroyed")
        else:
            sides.append(f"{(city.walls & mask).bit_count()}/{SIZE - 2}")
    return sides


def _city_view(city: City) -> dict[str, Any]:
    return {
        "cells": _cells(city),
        "coins": city.coins,
        "logs": city.logs,
        "vp": city.vp,
        "score": city.final_score(),
        "walls": city.walls.bit_count(),
        "defence": city.defence,
        "cannons_lost": city.cannons_lost,
        "empty": city.empty_count,
        "sides": _sides(city),
    }


def view(state: State) -> dict[str, Any]:
    """The position as plain data (see docs/replay-format.md for every key)."""
    decision = state.decision
    if state.is_terminal():
        phase = "over"
    elif decision is None:
        phase = "roll"
    else:
        phase = decision.value
    turn = state.turn if state.is_terminal() else state.turn + 1
    shown: dict[str, Any] = {
        "turn": turn,
        "round": (turn - 1) // state.num_players + 1,
        "to_move": None if state.is_terminal() else state.current,
        "phase": phase,
        "dice": [Symbol(face).name.lower() for face in state.dice],
        "rolls": state.rolls,
        "kept": [not state.to_roll >> i & 1 for i in range(NUM_DICE)],
        "rotated": [bool(state.rotated >> i & 1) for i in range(NUM_DICE)],
        "chosen": None if state.chosen < 0 else Symbol(state.chosen).name.lower(),
        "pirates": {
            "boxes": state.pirate_boxes,
            "per_row": state.pirate_boxes_per_row,
            "strengths": list(PIRATE_STRENGTHS),
            "next_attack": state.next_attack_strength,
        },
        "attacks": [
            {"turn": a.turn, "strength": a.strength, "defences": list(a.defences)} for a in state.attacks
        ],
        "ending": state.ending,
        "cities": [_city_view(city) for city in state.cities],
    }
    if state.is_terminal():
        shown["final_scoring"] = rows_json(score_rows(state))
    return shown


def _dice_list(mask: int, state: State) -> str:
    dice = [i for i in range(NUM_DICE) if mask >> i & 1]
    faces = ", ".join(Symbol(state.dice[i]).name.lower() for i in dice)
    return f"{'die' if len(dice) == 1 else 'dice'} {', '.join(str(i + 1) for i in dice)} ({faces})"


def _squares(mask: int) -> str:
    return ", ".join(square_name(space) for space in squares_of(mask))


def describe(state: State, step: Step) -> str:
    """One line saying what ``step`` does in ``state`` (before it is applied)."""
    match step:
        case Roll(faces):
            return "rolls " + ", ".join(Symbol(face).name.lower() for face in faces)
        case Keep(reroll):
            return "keeps every die" if reroll == 0 else "rerolls " + _dice_list(reroll, state)
        case Choose(symbol):
            return f"chooses {symbol.name.lower()}"
        case Rotate(dice):
            return "turns no dice" if dice == 0 else "turns " + _dice_list(dice, state)
        case PlaceLogs(count):
            return f"takes {count} log{'s' if count != 1 else ''}"
        case PlaceCrates(spaces):
            return f"places crates on {_squares(spaces)}"
        case PlaceWalls(spaces):
            return f"builds walls on {_squares(spaces)}"
        case PlaceChurch(space, size):
            return f"builds a church of size {size} on {square_name(space)}"
        case PlacePerson(person, space, houses):
            text = f"places a {person.name.lower()} on {square_name(space)}"
            return text + (f" and houses on {_squares(houses)}" if houses else "")
    raise TypeError(f"not a Saint Malo step: {step!r}")


# --- text pictures, for terminals and logs ------------------------------------------------------

#: Two characters per square. People are two-letter names; churches show their size.
CELL_LABELS: dict[str, str] = {
    "wall": "##",
    "crate": "[]",
    "house": "^^",
    **{f"church{size}": f"+{size}" for size in range(1, 6)},
    **{p.name.lower(): p.name[:2].capitalize() for p in Person},
}
EMPTY_CELL = " ."
TOWER_CELL = "()"


def render_city(city: City) -> str:
    """The 7x7 board plus the player's stock, one row per line."""
    items = city.items()
    lines = []
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            index = square(row, col)
            if TOWERS >> index & 1:
                cells.append(TOWER_CELL)
            else:
                cells.append(CELL_LABELS[items[index]] if index in items else EMPTY_CELL)
        lines.append(" ".join(cells))
    destroyed, complete = city.destroyed_sides, city.complete_sides
    sides = []
    for side, name in enumerate(SIDE_NAMES):
        if complete >> side & 1:
            sides.append(f"{name}:complete")
        elif destroyed >> side & 1:
            sides.append(f"{name}:destroyed")
        else:
            sides.append(f"{name}:{(city.walls & SIDE_MASKS[side]).bit_count()}/5")
    lines.append(
        f"vp {city.vp}  coins {city.coins}  logs {city.logs}  defence {city.defence}  "
        f"cannons lost {city.cannons_lost}  empty {city.empty_count}"
    )
    lines.append("sides " + " ".join(sides))
    return "\n".join(lines)


def render_pirates(state: State) -> str:
    """The pirate track: one row per attack strength, ``x`` for each marked box."""
    per_row = state.pirate_boxes_per_row
    lines = []
    for row, strength in enumerate(PIRATE_STRENGTHS):
        marked = max(0, min(per_row, state.pirate_boxes - row * per_row))
        lines.append(f"{strength:>2} |" + "x" * marked + "." * (per_row - marked) + "|")
    return "\n".join(lines)


def render_dice(state: State) -> str:
    """The five dice; ``*`` marks a die rotated this turn."""
    return " ".join(
        Symbol(face).name.lower() + ("*" if state.rotated >> i & 1 else "")
        for i, face in enumerate(state.dice)
    )


def render(state: State) -> str:
    """Every city side by side with its seat, then dice and pirate track."""
    blocks = [render_city(city).split("\n") for city in state.cities]
    width = max(len(line) for block in blocks for line in block)
    out = []
    for seat_from in range(0, len(blocks), 2):
        group = blocks[seat_from : seat_from + 2]
        out.append("   ".join(f"seat {seat_from + i}".ljust(width) for i in range(len(group))))
        for row in range(len(group[0])):
            out.append("   ".join(block[row].ljust(width) for block in group).rstrip())
        out.append("")
    status = "game over" if state.is_terminal() else f"round {state.round}, seat {state.current} to play"
    out.append(f"{status}; dice: {render_dice(state)}")
    out.append(render_pirates(state))
    out.extend(render_attack(attack) for attack in state.attacks)
    return "\n".join(out)


def render_attack(attack: PirateAttack) -> str:
    """One line per pirate attack: its strength and who was too weak for it."""
    weak = [seat for seat, defence in enumerate(attack.defences) if defence < attack.strength]
    losers = ", ".join(f"seat {seat}" for seat in weak) or "nobody"
    defences = " ".join(str(d) for d in attack.defences)
    return f"attack on turn {attack.turn}: strength {attack.strength}, defences {defences}; weaker: {losers}"
