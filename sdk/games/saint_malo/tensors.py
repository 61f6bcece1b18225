"""Saint Malo for learning: the numbering of its actions and the tensor of an observation.

Every seat sees the whole state, so the tensor is written from the deciding seat's side: city
block 0 is the city of the seat whose turn it is, then the others in seat order after it.
Field by field on the bot page (docs/bots-saint-malo.md, "Tensors").
"""

from __future__ import annotations

import functools
import itertools
from array import array

from sdk.games.tensors import ActionSpace, Features, TensorSpec, Vector, Writer, bits

from .actions import (
    Action,
    Choose,
    Keep,
    PlaceChurch,
    PlaceCrates,
    PlaceLogs,
    PlacePerson,
    PlaceWalls,
    Rotate,
)
from .board import NUM_SQUARES, OUTER, SPACES, squares_of
from .city import City
from .params import MAX_PLAYERS
from .phases import ALL_DICE, BONUS, CHOOSE, KEEP, PLACE, ROTATE
from .pieces import NUM_DICE, PIRATE_STRENGTHS, SCORING_SYMBOLS, Person, Symbol
from .shapes import GROUPS_UP_TO, HOUSES_NEAR, MAX_GROUP, MAX_HOUSES
from .state import State

PHASES = (KEEP, CHOOSE, ROTATE, PLACE, BONUS)
MAX_CHURCH = NUM_DICE
_SPACES = tuple(squares_of(SPACES))


def _persons() -> list[PlacePerson]:
    persons = []
    for person in Person:
        for space in _SPACES:
            persons.append(PlacePerson(person, space))
            if person is Person.ARCHITECT:
                persons.extend(
                    PlacePerson(person, space, houses) for houses in HOUSES_NEAR[MAX_HOUSES][space]
                )
    return persons


ACTIONS: ActionSpace[Action] = ActionSpace(
    [
        *(Keep(mask) for mask in range(ALL_DICE + 1)),
        *(Choose(symbol) for symbol in SCORING_SYMBOLS),
        *(Rotate(mask) for mask in range(ALL_DICE + 1)),
        *(PlaceLogs(count) for count in range(1, NUM_DICE + 1)),
        *(PlaceCrates(group) for group in GROUPS_UP_TO[MAX_GROUP]),
        *(
            PlaceWalls(sum(1 << s for s in combo))
            for n in range(1, NUM_DICE + 1)
            for combo in itertools.combinations(tuple(squares_of(OUTER)), n)
        ),
        *(PlaceChurch(space, size) for size in range(1, MAX_CHURCH + 1) for space in _SPACES),
        *_persons(),
    ]
)

#: Planes of a city's grid: walls, crates, houses, churches by size, persons by type.
PLANES = 3 + MAX_CHURCH + len(Person)
MOST_COINS = 30
MOST_LOGS = 10
MOST_VP = 100
MOST_TURNS = 60
FEATURES = Features(
    (
        ("players", MAX_PLAYERS),
        ("phase", len(PHASES)),
        ("dice", NUM_DICE * len(Symbol)),
        ("rolls", 1),
        ("to_roll", NUM_DICE),
        ("rotated", NUM_DICE),
        ("chosen", len(Symbol)),
        ("bonus_persons", 1),
        ("turn", 1),
        ("pirates", 2),
        ("ending", 1),
        ("cities", MAX_PLAYERS * PLANES * NUM_SQUARES),
        ("stocks", MAX_PLAYERS * 4),
    )
)


#: A die's face as a one-hot over the symbols (iterating an enum costs a call per member).
_FACE: dict[int, tuple[float, ...]] = {
    face: tuple(float(face == symbol) for symbol in Symbol) for face in Symbol
}
_DIE_BITS = [tuple(float(mask >> die & 1) for die in range(NUM_DICE)) for mask in range(ALL_DICE + 1)]


def _city_planes(city: City) -> Vector:
    return _planes(city.walls, city.crates, city.houses, city.churches, city.persons)


@functools.lru_cache(maxsize=4096)
def _planes(
    walls: int, crates: int, houses: int, churches: tuple[int, ...], persons: tuple[int, ...]
) -> Vector:
    """A grid's planes, remembered as float32 (copied as memory): a city changes at one decision in
    many (the dice come first). Never written to: the tensor gets a copy."""
    values = bits(walls, NUM_SQUARES) + bits(crates, NUM_SQUARES) + bits(houses, NUM_SQUARES)
    for mask in churches:
        values += bits(mask, NUM_SQUARES)
    values += [0.0] * (NUM_SQUARES * (MAX_CHURCH - len(churches)))
    for mask in persons:
        values += bits(mask, NUM_SQUARES)
    return array("f", values)


def encode(state: State, tensor: Writer) -> None:
    """Cities from the deciding seat's side; blocks beyond the table's size stay zero."""
    tensor.one_hot("players", state.num_players - 1)
    tensor.one_hot("phase", PHASES.index(state.phase) if state.phase in PHASES else -1)
    dice: list[float] = []
    for face in state.dice:
        dice += _FACE[face]
    tensor.put("dice", dice)
    tensor.put("rolls", [state.rolls / 3])
    tensor.put("to_roll", _DIE_BITS[state.to_roll])
    tensor.put("rotated", _DIE_BITS[state.rotated])
    tensor.one_hot("chosen", state.chosen)
    tensor.put("bonus_persons", [min(state.bonus_persons, 4) / 4])
    tensor.put("turn", [min(state.turn, MOST_TURNS) / MOST_TURNS])
    strength = state.next_attack_strength
    tensor.put(
        "pirates", [state.attacks_made / len(PIRATE_STRENGTHS), (strength or 0) / PIRATE_STRENGTHS[-1]]
    )
    tensor.put("ending", [float(state.ending)])
    me, players = state.current % state.num_players, state.num_players
    order = [state.cities[(me + k) % players] for k in range(players)]
    grids: Vector = array("f")
    stocks: list[float] = []
    for city in order:
        grids += _city_planes(city)
        stocks += [
            min(city.coins, MOST_COINS) / MOST_COINS,
            min(city.logs, MOST_LOGS) / MOST_LOGS,
            min(city.vp, MOST_VP) / MOST_VP,
            city.cannons_lost / max(state.params.cannons, 1),
        ]
    tensor.put("cities", grids)
    tensor.put("stocks", stocks)


def legal(state: State) -> list[Action]:
    """The observation is the whole state, so its own list is the deciding seat's."""
    return state.legal_actions()


TENSORS = TensorSpec(ACTIONS, FEATURES, encode, legal)
