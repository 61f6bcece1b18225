"""Plain-text pictures of cities and the pirate track, for terminals and logs."""

from __future__ import annotations

from .board import SIDE_MASKS, SIDE_NAMES, SIZE, TOWERS, square
from .city import City
from .pieces import PIRATE_STRENGTHS, Person, Symbol
from .state import PirateAttack, State

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
LEGEND = (
    "## wall  [] crate  ^^ house  +n church of size n  "
    "Ci citizen So soldier Pr priest Ar architect Me merchant Ju juggler No noble"
)


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
