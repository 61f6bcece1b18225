"""The position as plain data (for the web viewer) and as text, and steps in words.

Everything shown to a seat comes from its :class:`Observation`; the organiser's view
(``seat=None``) adds every hand.
"""

from __future__ import annotations

from typing import Any

from sdk.games.score_rows import rows_json

from .actions import Connect, FinalScore, Houses, Roll, Score, Shuffle, Step, Swap, Towers, Wall
from .board import (
    LINE_SPACES,
    LINES,
    POINTS,
    REGION_NAMES,
    SHORE_POINTS,
    SPACE_CORNERS,
    SPACE_REGION,
    SPACES,
    lines_touching,
    lines_within,
    point_xy,
)
from .cards import ANY_COLOUR, CARDS, HOUSE_COLOURS, TOWER_COLOURS
from .observation import Observation, observe
from .phases import DECISION_PHASES, PHASE_NAMES
from .scoring import score_rows
from .state import State

#: The nouns of the game's rules: no code outside the game may use them (a conformance test checks).
NOUNS = (
    "tower", "towers", "house", "houses", "palace", "palaces", "guild", "shore", "mason",
)  # fmt: skip


#: Cards named from the top of a shuffled pile in the organiser's step text.
SHUFFLE_SHOWN = 5


def _point_name(p: int) -> str:
    return f"({p // 7},{p % 7})"


def line_name(line: int) -> str:
    a, b = LINES[line]
    return f"line {line} {_point_name(a)}-{_point_name(b)}"


#: Readable words for each card rule; ``{}`` takes the card's colour or region.
_CARD_WORDS = {
    "small_city": "Small city", "large_city": "Large city", "variety": "Variety",
    "city_palaces": "City: palaces", "city_towers": "City: towers", "land_towers": "Land: towers",
    "shore_towers": "Shore towers", "land_walls": "Land: walls", "cities": "Cities",
    "city_tower": "City: {} towers", "city_colour": "City: {} houses", "land_houses": "Land: {} houses",
    "land_region": "Land: {} region", "land_tower": "Land: {} towers",
}  # fmt: skip


def card_title(card: int) -> str:
    """A card kind in words (``land_tower_grey``: "Land: grey towers"), as steps and hands name it."""
    kind = CARDS[card]
    words = _CARD_WORDS[kind.rule]
    return words.format(kind.name.rsplit("_", 1)[1]) if "{}" in words else words


def _cards(counts: tuple[int, ...] | list[int]) -> list[dict[str, Any]]:
    return [{"card": CARDS[k].name, "title": card_title(k), "count": n} for k, n in enumerate(counts) if n]


def _colours(counts: tuple[int, ...], names: tuple[str, ...]) -> dict[str, int]:
    return {names[c]: n for c, n in enumerate(counts) if n}


def _geometry() -> dict[str, Any]:
    points = []
    for p in range(POINTS):
        x, y = point_xy(p)
        points.append({"id": p, "x": round(x, 4), "y": round(y, 4), "shore": bool(SHORE_POINTS >> p & 1)})
    spaces = [
        {"id": sp, "corners": list(SPACE_CORNERS[sp]), "region": REGION_NAMES[SPACE_REGION[sp]]}
        for sp in range(SPACES)
    ]
    lines = [{"id": n, "a": a, "b": b, "edge": len(LINE_SPACES[n]) == 1} for n, (a, b) in enumerate(LINES)]
    return {"points": points, "spaces": spaces, "lines": lines}


GEOMETRY = _geometry()


def _deciding(state: State) -> dict[str, Any] | None:
    if state.is_terminal() or state.is_chance_node():
        return None
    return {"seat": state.current_player, "kind": DECISION_PHASES[state.phase]}


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The position as plain data; with ``seat``, only what that seat may know."""
    o: Observation = observe(state, 0 if seat is None else seat)
    towers = [
        {"point": p, "colour": TOWER_COLOURS[c]}
        for p in range(POINTS)
        for c, mask in enumerate(o.towers)
        if mask >> p & 1
    ]
    houses = [
        {"space": sp, "colour": HOUSE_COLOURS[c], "count": n}
        for sp, counts in enumerate(o.houses)
        for c, n in enumerate(counts)
        if n
    ]
    cities = []
    for index, city in enumerate(o.cities):
        border = lines_touching(city.spaces) & ~lines_within(city.spaces)
        cities.append(
            {
                "index": index,
                "spaces": [sp for sp in range(SPACES) if city.spaces >> sp & 1],
                "border": [n for n in range(len(LINES)) if border >> n & 1],
                "houses": _colours(city.houses, HOUSE_COLOURS),
                "palaces": _colours(city.palaces, HOUSE_COLOURS),
                "scored": index == o.scored_city,
            }
        )
    seats = []
    for s in range(o.players):
        own = seat is None or s == seat
        hand = (state.hands[s] if seat is None else o.hand) if own else None
        seats.append(
            {
                "seat": s,
                "score": o.points[s],
                "hand_size": o.hand_sizes[s],
                "hand": None if hand is None else _cards(hand),
            }
        )
    shown: dict[str, Any] = {
        "turn": o.turn,
        "phase": PHASE_NAMES[o.phase],
        "active": o.active,
        "viewer": seat,
        "deciding": _deciding(state),
        "board": GEOMETRY,
        "walls": [n for n in range(len(LINES)) if o.walls >> n & 1],
        "wall": o.wall,
        "new_city": [sp for sp in range(SPACES) if o.new_city >> sp & 1],
        "towers": towers,
        "houses": houses,
        "cities": cities,
        "roll": None if not o.roll else _roll(o.roll[0], o.roll[1], o.roll[2]),
        "supply": {
            "walls": o.walls_left,
            "towers": dict(zip(TOWER_COLOURS, o.towers_left, strict=True)),
            "houses": dict(zip(HOUSE_COLOURS, o.houses_left, strict=True)),
            "palaces": dict(zip(HOUSE_COLOURS, o.palaces_left, strict=True)),
        },
        "discards": _cards(o.discards),
        "draw_size": o.draw_size,
        "ending": o.ending,
        "seats": seats,
    }
    if state.is_terminal():
        shown["final_scoring"] = rows_json(score_rows(state))
    return shown


def _house_die(face: int) -> str:
    return "any colour" if face == ANY_COLOUR else HOUSE_COLOURS[face]


def _roll(tower: int, a: int, b: int) -> dict[str, str]:
    return {"tower": TOWER_COLOURS[tower], "house_a": _house_die(a), "house_b": _house_die(b)}


def render(state: State, seat: int | None = None) -> str:
    """The position as text, from :func:`view`."""
    data = view(state, seat)
    supply = data["supply"]
    lines = [
        f"Masons, turn {data['turn']}, {data['phase']}{' (last turn)' if data['ending'] else ''}; "
        f"supply: {supply['walls']} walls, towers {supply['towers']}, houses {supply['houses']}, "
        f"palaces {supply['palaces']}; draw pile {data['draw_size']}"
    ]
    if data["deciding"]:
        lines.append(f"deciding: seat {data['deciding']['seat']} ({data['deciding']['kind']})")
    if data["roll"]:
        r = data["roll"]
        lines.append(f"dice: {r['tower']} tower, {r['house_a']} and {r['house_b']} houses")
    lines.append(f"walls ({len(data['walls'])}): {', '.join(map(str, data['walls'])) or 'none'}")
    towers = ", ".join(f"{_point_name(t['point'])} {t['colour']}" for t in data["towers"])
    lines.append(f"towers: {towers or 'none'}")
    by_space: dict[int, list[str]] = {}
    for h in data["houses"]:
        by_space.setdefault(h["space"], []).append(f"{h['count']} {h['colour']}")
    land = "; ".join(f"{space}: {', '.join(parts)}" for space, parts in by_space.items())
    lines.append(f"houses on the land: {land or 'none'}")
    for city in data["cities"]:
        pieces = ", ".join(
            [f"{n} {c} house{'s' if n > 1 else ''}" for c, n in city["houses"].items()]
            + [f"{n} {c} palace{'s' if n > 1 else ''}" for c, n in city["palaces"].items()]
        )
        lines.append(
            f"city {city['index']}{' (scored now)' if city['scored'] else ''}: spaces "
            f"{', '.join(map(str, city['spaces']))}; {pieces or 'empty'}"
        )
    for s in data["seats"]:
        mark = ">" if s["seat"] == data["active"] and data["phase"] != "over" else " "
        hand = (
            ", ".join(f"{c['card']}" + (f" x{c['count']}" if c["count"] > 1 else "") for c in s["hand"])
            if s["hand"] is not None
            else f"{s['hand_size']} cards"
        )
        lines.append(f"{mark}seat {s['seat']}: {s['score']} points; hand: {hand or 'empty'}")
    return "\n".join(lines)


def _points(points: int) -> str:
    return f"{points} point{'' if points == 1 else 's'}"


def _card_list(cards: tuple[int, ...]) -> str:
    return " and ".join(card_title(k) for k in cards)


def _placed(colours: tuple[int, ...], where: list[str], names: tuple[str, ...]) -> str:
    placed = [f"{names[c]} at {w}" for c, w in zip(colours, where, strict=True) if c >= 0]
    return ", ".join(placed) or "nothing"


def describe(state: State, step: Step, seat: int | None = None) -> str | None:
    """``step`` in words, as ``seat`` learns of it (every step here is public; shuffles keep their order)."""
    match step:
        case Shuffle(order):
            what = (
                "the cards are dealt"
                if state.phase == 0
                else "the discard pile is shuffled into a new draw pile"
            )
            if seat is not None:
                return f"{what} ({len(order)} cards)"
            top = ", ".join(card_title(k) for k in order[:SHUFFLE_SHOWN])
            return f"{what} ({len(order)} cards; top: {top}{', …' if len(order) > SHUFFLE_SHOWN else ''})"
        case Roll(tower, (a, b)):
            r = _roll(tower, a, b)
            return f"rolls a {r['tower']} tower, {r['house_a']} and {r['house_b']} houses"
        case Wall(line):
            return f"builds a wall on {line_name(line)}"
        case Towers(colours):
            ends = [_point_name(p) for p in LINES[state.wall]]
            return f"places towers: {_placed(colours, ends, TOWER_COLOURS)}"
        case Houses(colours):
            sides = [f"space {sp}" for sp in LINE_SPACES[state.wall]]
            return f"places houses: {_placed(colours, sides, HOUSE_COLOURS)}"
        case Connect(city):
            return "leaves the new city on its own" if city is None else f"joins the new city to city {city}"
        case Score(cards, discard):
            if discard:
                return f"discards {_card_list(cards)} and draws 2"
            points = sum(state.card_value(k, state.scored_city) for k in cards)
            return f"plays {_card_list(cards)} for {_points(points)}"
        case Swap(cards):
            return f"replaces {_card_list(cards)}" if cards else "keeps the hand"
        case FinalScore(city, cards):
            if not cards:
                return "passes"
            points = sum(state.card_value(k, city) for k in cards)
            named = "" if city is None else f" for city {city}"
            return f"plays {_card_list(cards)}{named} for {_points(points)}"
    raise TypeError(f"not a Masons step: {step!r}")
