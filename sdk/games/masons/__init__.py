"""Masons rules engine (rulings M1-M10): exact, fast, standard library only.

Bots import it as a forward model::

    import random
    from sdk.games import masons

    state = masons.new_game(players=4)
    rng = random.Random(7)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(state.sample_action(rng))
    print(state.scores(), state.ranks())
"""

from ..errors import IllegalActionError
from .actions import (
    Action,
    Connect,
    FinalScore,
    Houses,
    Roll,
    Score,
    Shuffle,
    Step,
    Swap,
    Towers,
    Wall,
    step_from_json,
    step_to_json,
)
from .cards import CARD_BY_NAME, CARDS, HOUSE_COLOURS, KINDS, TOWER_COLOURS, CardKind
from .hidden import determinize, resample_hidden
from .observation import CityView, Observation, observe
from .phases import CHANCE, TERMINAL
from .state import MAX_PLAYERS, MIN_PLAYERS, City, State, new_game

__all__ = [
    "CARDS",
    "CARD_BY_NAME",
    "CHANCE",
    "HOUSE_COLOURS",
    "KINDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "TERMINAL",
    "TOWER_COLOURS",
    "Action",
    "CardKind",
    "City",
    "CityView",
    "Connect",
    "FinalScore",
    "Houses",
    "IllegalActionError",
    "Observation",
    "Roll",
    "Score",
    "Shuffle",
    "State",
    "Step",
    "Swap",
    "Towers",
    "Wall",
    "determinize",
    "new_game",
    "observe",
    "resample_hidden",
    "step_from_json",
    "step_to_json",
]
