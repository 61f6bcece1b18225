"""Saint Malo rules engine: exact, fast, standard library only.

Bots import it as a forward model::

    import random
    from sdk.games import saint_malo as sm

    state = sm.new_game(players=2)
    rng = random.Random(7)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(state.sample_action(rng))
    print(state.scores(), state.ranks())
"""

from collections.abc import Callable

from ..errors import IllegalActionError
from ..play import GameRecord as _GameRecord
from ..play import RandomPolicy
from ..plugin_base import Engine
from .actions import (
    Action,
    Choose,
    Keep,
    Place,
    PlaceChurch,
    PlaceCrates,
    PlaceLogs,
    PlacePerson,
    PlaceWalls,
    Roll,
    Rotate,
    Step,
    step_from_json,
    step_to_json,
)
from .board import (
    ADJACENT,
    INNER,
    ORTHOGONAL,
    OUTER,
    SIDE_MASKS,
    SIDE_NAMES,
    SPACES,
    mask_of,
    row_col,
    square,
    squares_of,
)
from .city import City, church_series_points
from .params import Params
from .phases import CHANCE, TERMINAL
from .pieces import Decision, Person, ScorePart, Symbol
from .state import PirateAttack, State, new_game
from .view import render, render_city, render_dice, render_pirates

#: A seat's player in :func:`play_game`: the state at its decision in, its action out.
Policy = Callable[[State], Action]


class GameRecord(_GameRecord[State, Params]):
    """A Saint Malo game as its table size, parameters and steps: :func:`replay` re-creates it exactly."""

    engine = Engine(State, new_game, step_to_json, step_from_json, Params)


#: ``play_game(policies, chance_rng, params=None, *, check=True) -> (final state, GameRecord)``.
play_game = GameRecord.play
#: ``replay(record, *, upto=None) -> State``: the record re-simulated, every step checked.
replay = GameRecord.replay

__all__ = [
    "ADJACENT",
    "CHANCE",
    "INNER",
    "ORTHOGONAL",
    "OUTER",
    "SIDE_MASKS",
    "SIDE_NAMES",
    "SPACES",
    "TERMINAL",
    "Action",
    "Choose",
    "City",
    "Decision",
    "GameRecord",
    "IllegalActionError",
    "Keep",
    "Params",
    "Person",
    "PirateAttack",
    "Place",
    "PlaceChurch",
    "PlaceCrates",
    "PlaceLogs",
    "PlacePerson",
    "PlaceWalls",
    "Policy",
    "RandomPolicy",
    "Roll",
    "Rotate",
    "ScorePart",
    "State",
    "Step",
    "Symbol",
    "church_series_points",
    "mask_of",
    "new_game",
    "play_game",
    "render",
    "render_city",
    "render_dice",
    "render_pirates",
    "replay",
    "row_col",
    "square",
    "squares_of",
    "step_from_json",
    "step_to_json",
]
