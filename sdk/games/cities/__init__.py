"""Cities rules engine: exact, fast, standard library only.

Bots import it as a forward model::

    import random
    from sdk.games import cities

    state = cities.new_game(players=4)
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
    Deck,
    Draw,
    DrawChoice,
    EducationMode,
    Exchange,
    GiveCity,
    GiveEvent,
    Pass,
    Play,
    React,
    Shuffle,
    Step,
    step_from_json,
    step_to_json,
)
from .cards import (
    ALL_CITIES,
    ANGERS,
    CAPITAL_MASK,
    CITIES,
    CITY_BY_NAME,
    CITY_EMPIRE,
    COMMANDERS,
    COVERED_BY,
    CRISIS_DISCIPLINES,
    ECONOMIC_CRISES,
    EMPIRE_MASKS,
    EVENT_CARDS,
    EVENT_NAMES,
    GAMES,
    NEUTRAL_MASK,
    PROTECTIONS,
    REGULAR_MASKS,
    SIDE_EMPIRES,
    SIDE_MASKS,
    WONDER_MASK,
    City,
    Discipline,
    Empire,
    EventType,
    Side,
    cities_of,
    mask_of,
)
from .observation import Observation, Pending, PlayedEvent, Resolving
from .params import MAX_PLAYERS, MIN_PLAYERS, SIZES, Params
from .phases import Decision, Outcome
from .state import CHANCE, TERMINAL, State, determinize, new_game

#: A seat's player in :func:`play_game`: the state at its decision in, its action out.
Policy = Callable[[State], Action]


class GameRecord(_GameRecord[State, Params]):
    """A Cities game as its table size, parameters and steps: :func:`replay` re-creates it exactly."""

    engine = Engine(State, new_game, step_to_json, step_from_json, Params)


#: ``play_game(policies, chance_rng, params=None, *, check=True) -> (final state, GameRecord)``.
play_game = GameRecord.play
#: ``replay(record, *, upto=None) -> State``: the record re-simulated, every step checked.
replay = GameRecord.replay

__all__ = [
    "ALL_CITIES",
    "ANGERS",
    "CAPITAL_MASK",
    "CHANCE",
    "CITIES",
    "CITY_BY_NAME",
    "CITY_EMPIRE",
    "COMMANDERS",
    "COVERED_BY",
    "CRISIS_DISCIPLINES",
    "ECONOMIC_CRISES",
    "EMPIRE_MASKS",
    "EVENT_CARDS",
    "EVENT_NAMES",
    "GAMES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NEUTRAL_MASK",
    "PROTECTIONS",
    "REGULAR_MASKS",
    "SIDE_EMPIRES",
    "SIDE_MASKS",
    "SIZES",
    "TERMINAL",
    "WONDER_MASK",
    "Action",
    "City",
    "Decision",
    "Deck",
    "Discipline",
    "Draw",
    "DrawChoice",
    "EducationMode",
    "Empire",
    "EventType",
    "Exchange",
    "GameRecord",
    "GiveCity",
    "GiveEvent",
    "IllegalActionError",
    "Observation",
    "Outcome",
    "Params",
    "Pass",
    "Pending",
    "Play",
    "PlayedEvent",
    "Policy",
    "RandomPolicy",
    "React",
    "Resolving",
    "Shuffle",
    "Side",
    "State",
    "Step",
    "cities_of",
    "determinize",
    "mask_of",
    "new_game",
    "play_game",
    "replay",
    "step_from_json",
    "step_to_json",
]
