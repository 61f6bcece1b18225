"""Masons for learning: the numbering of its actions and the tensor of a seat's observation.

A seat knows the board, the supplies, the scores, every hand's size, the discard pile and its own
hand (M9), so the tensor holds exactly these: its own guild cards by kind, the others' only as
counts. Seat blocks are written from the observing seat's side (block 0 is the seat itself, then
the others in seat order after it), so one numbering serves every seat and every table size.
Completed cities keep their index (the one ``Connect`` and ``FinalScore`` name). Field by field on
the bot page (docs/bots-masons.md, "Tensors").

The swap (M7: any sub-multiset of the hand, whose size grows by one with every discard-and-draw)
has too many options to number whole (every sub-multiset of any hand a seat could hold), so it is
taken in parts: one card kind at a time, in ascending order and never more copies than the hand
holds, then :data:`SWAP_END`. Each swap the rules allow is made by exactly one such sequence, and
the kinds chosen so far are in the tensor (block ``swap_chosen``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from sdk.games.tensors import ActionSpace, Features, Parts, TensorSpec, Writer, bits

from .actions import Action, Connect, FinalScore, Houses, Score, Swap, Towers, Wall
from .board import (
    ALL_LINES,
    LINE_COUNT,
    LINE_SPACES,
    LINES,
    POINTS,
    SPACE_NEIGHBOURS,
    SPACES,
    spaces_of,
)
from .cards import COPIES, FULL_DECK, HOUSE_COLOURS, KINDS, TOWER_COLOURS, WITHOUT_CITY
from .observation import QUEUED_PHASES, Observation
from .phases import CONNECT, FINAL, HOUSES, PHASE_NAMES, SCORE, SWAP, TOWERS, WALL
from .pieces import house_options, tower_options
from .rules import card_actions, plays
from .state import HOUSES_PER_COLOUR, MAX_PLAYERS, PALACES_PER_COLOUR, TOWERS_PER_COLOUR, WALLS

#: A completed city holds at least one space, so its index is below the number of spaces.
MOST_CITIES = SPACES
_TOWER_CHOICES = range(-1, len(TOWER_COLOURS))
_HOUSE_CHOICES = range(-1, len(HOUSE_COLOURS))
_PLAYS = plays(COPIES)


@dataclass(frozen=True, slots=True)
class SwapCard:
    """A part of a swap: one more card of ``kind`` given up (kinds chosen in ascending order)."""

    kind: int


@dataclass(frozen=True, slots=True)
class SwapEnd:
    """The last part of a swap: the cards chosen so far are given up (none: the hand is kept)."""


SWAP_END = SwapEnd()
SwapPart = SwapCard | SwapEnd

ACTIONS: ActionSpace[Action | SwapPart] = ActionSpace(
    [
        *(Wall(line) for line in range(LINE_COUNT)),
        *(Towers((low, high)) for low in _TOWER_CHOICES for high in _TOWER_CHOICES),
        *(Houses((colour,)) for colour in _HOUSE_CHOICES),
        *(Houses((first, second)) for first in _HOUSE_CHOICES for second in _HOUSE_CHOICES),
        Connect(None),
        *(Connect(city) for city in range(MOST_CITIES)),
        *(Score(cards) for cards in _PLAYS),
        *(Score((kind,), True) for kind in range(KINDS)),
        FinalScore(None, ()),
        *(FinalScore(None, cards) for cards in plays(COPIES, WITHOUT_CITY)),
        *(FinalScore(city, cards) for city in range(MOST_CITIES) for cards in _PLAYS),
        SWAP_END,
        *(SwapCard(kind) for kind in range(KINDS)),
    ]
)

MOST_POINTS = 150
MOST_HAND = 20
MOST_TURNS = 100
#: Houses on one land space: one per wall along its three sides.
MOST_SPACE_HOUSES = 3
FEATURES = Features(
    (
        ("players", MAX_PLAYERS),
        ("phase", len(PHASE_NAMES)),
        ("deciding", MAX_PLAYERS),
        ("active", MAX_PLAYERS),
        ("queued", MAX_PLAYERS),
        ("turn", 1),
        ("walls", LINE_COUNT),
        ("closed", LINE_COUNT),
        ("towers", len(TOWER_COLOURS) * POINTS),
        ("houses", SPACES * len(HOUSE_COLOURS)),
        ("city_spaces", SPACES),
        ("cities", MOST_CITIES * (1 + 2 * len(HOUSE_COLOURS))),
        ("wall", LINE_COUNT),
        ("roll", len(TOWER_COLOURS) + 2 * (len(HOUSE_COLOURS) + 1)),
        ("new_city", SPACES),
        ("scored_city", MOST_CITIES),
        ("completed", 1),
        ("ending", 1),
        ("supply", 1 + len(TOWER_COLOURS) + 2 * len(HOUSE_COLOURS)),
        ("points", MAX_PLAYERS),
        ("hand_sizes", MAX_PLAYERS),
        ("hand", KINDS),
        ("discards", KINDS),
        ("draw_size", 1),
        ("swap_chosen", KINDS),
    )
)


@functools.lru_cache(maxsize=1024)
def _towers(towers: tuple[int, ...]) -> list[float]:
    """Remembered: the towers change at one decision in several (the turn's wall comes first)."""
    return [bit for mask in towers for bit in bits(mask, POINTS)]


@functools.lru_cache(maxsize=1024)
def _houses(houses: tuple[tuple[int, ...], ...]) -> list[float]:
    """Remembered, as the towers are."""
    return [n / MOST_SPACE_HOUSES for space in houses for n in space]


_ROLL_OFFSETS = (0, len(TOWER_COLOURS), len(TOWER_COLOURS) + len(HOUSE_COLOURS) + 1)
_SUPPLY_SCALE = (WALLS, *[TOWERS_PER_COLOUR] * 3, *[HOUSES_PER_COLOUR] * 5, *[PALACES_PER_COLOUR] * 5)
_CITY_SCALE = (SPACES, *[HOUSES_PER_COLOUR] * 5, *[PALACES_PER_COLOUR] * 5)


def _deciding(o: Observation) -> int:
    return o.queue[0] if o.queue and o.phase in QUEUED_PHASES else o.active


def encode(o: Observation, tensor: Writer) -> None:
    """Seat blocks from the observing seat's side; blocks beyond the table's size stay zero."""
    seat, players = o.seat, o.players
    order = [(seat + k) % players for k in range(players)]
    tensor.one_hot("players", players - 1)
    tensor.one_hot("phase", o.phase)
    tensor.one_hot("deciding", (_deciding(o) - seat) % players)
    tensor.one_hot("active", (o.active - seat) % players)
    tensor.put("queued", [float(s in o.queue) for s in order])
    tensor.put("turn", [min(o.turn, MOST_TURNS) / MOST_TURNS])
    tensor.put("walls", bits(o.walls, LINE_COUNT))
    tensor.put("closed", bits(o.closed, LINE_COUNT))
    tensor.put("towers", _towers(o.towers))
    tensor.put("houses", _houses(o.houses))
    city_spaces = 0
    cities: list[float] = []
    for city in o.cities:
        city_spaces |= city.spaces
        counts = (city.spaces.bit_count(), *city.houses, *city.palaces)
        cities += [n / scale for n, scale in zip(counts, _CITY_SCALE, strict=True)]
    tensor.put("city_spaces", bits(city_spaces, SPACES))
    tensor.put("cities", cities)
    tensor.one_hot("wall", o.wall)
    if o.roll:
        tensor.put("roll", _roll(o.roll))
    tensor.put("new_city", bits(o.new_city, SPACES))
    tensor.one_hot("scored_city", o.scored_city)
    tensor.put("completed", [float(o.completed)])
    tensor.put("ending", [float(o.ending)])
    supply = (o.walls_left, *o.towers_left, *o.houses_left, *o.palaces_left)
    tensor.put("supply", [n / scale for n, scale in zip(supply, _SUPPLY_SCALE, strict=True)])
    tensor.put("points", [min(o.points[s], MOST_POINTS) / MOST_POINTS for s in order])
    tensor.put("hand_sizes", [min(o.hand_sizes[s], MOST_HAND) / MOST_HAND for s in order])
    tensor.put("hand", [n / copies for n, copies in zip(o.hand, COPIES, strict=True)])
    tensor.put("discards", [n / copies for n, copies in zip(o.discards, COPIES, strict=True)])
    tensor.put("draw_size", [o.draw_size / len(FULL_DECK)])


def _roll(roll: tuple[int, ...]) -> list[float]:
    values = [0.0] * (len(TOWER_COLOURS) + 2 * (len(HOUSE_COLOURS) + 1))
    for offset, face in zip(_ROLL_OFFSETS, roll, strict=True):
        values[offset + face] = 1.0
    return values


def _tower_at(towers: tuple[int, ...], point: int) -> int:
    for colour, mask in enumerate(towers):
        if mask >> point & 1:
            return colour
    return -1


def _neighbours(o: Observation) -> list[int]:
    """Completed cities sharing a wall with the new city, ascending (M5.1)."""
    found = set()
    for index, city in enumerate(o.cities):
        for space in spaces_of(o.new_city):
            if any(city.spaces >> other & 1 for _, other in SPACE_NEIGHBOURS[space]):
                found.add(index)
                break
    return sorted(found)


def legal(o: Observation) -> list[Action]:
    """The deciding seat's options from its observation alone, in the engine's order."""
    phase = o.phase
    if phase == WALL:
        return [Wall(line) for line in spaces_of(ALL_LINES & ~o.walls & ~o.closed)]
    if phase == TOWERS:
        low, high = LINES[o.wall]
        ends = (_tower_at(o.towers, low), _tower_at(o.towers, high))
        return [Towers(c) for c in tower_options(ends, o.roll[0], o.towers_left)]  # type: ignore[arg-type]
    if phase == HOUSES:
        options = house_options(len(LINE_SPACES[o.wall]), (o.roll[1], o.roll[2]), o.houses_left)
        return [Houses(c) for c in options]
    if phase == CONNECT:
        return [Connect(None), *(Connect(c) for c in _neighbours(o))]
    if phase in (SCORE, SWAP, FINAL):
        return card_actions(phase, o.hand, len(o.cities))
    return []


def _swapping(o: Observation) -> bool:
    return o.phase == SWAP


def _swap_options(o: Observation, chosen: tuple[Any, ...]) -> list[SwapPart]:
    """The end, then every kind from the last one chosen of which the hand holds one more."""
    kinds = [part.kind for part in chosen]
    low = kinds[-1] if kinds else 0
    return [SWAP_END, *(SwapCard(kind) for kind in range(low, KINDS) if o.hand[kind] > kinds.count(kind))]


def _swap(chosen: tuple[Any, ...]) -> Swap | None:
    if chosen[-1] != SWAP_END:
        return None
    return Swap(tuple(part.kind for part in chosen[:-1]))


def _write_swap(chosen: tuple[Any, ...], tensor: Writer) -> None:
    counts = [0.0] * KINDS
    for part in chosen:
        counts[part.kind] += 1.0 / COPIES[part.kind]
    tensor.put("swap_chosen", counts)


TENSORS = TensorSpec(ACTIONS, FEATURES, encode, legal, Parts(_swapping, _swap_options, _swap, _write_swap))
