"""Bruges: the rules engine (standard library only) and what bots need to play it.

``State`` is a full forward model (``clone``, ``apply``, ``legal_actions``); an ``Observation``
is what one seat may know, with its legal ``options`` when it decides.
"""

from __future__ import annotations

from .actions import (
    ACTION_NAMES,
    CANAL,
    FIRE_EMPTY,
    FIRE_HOUSE,
    FIRE_SECTION_A,
    FIRE_SECTION_B,
    GUILDERS,
    HOUSE,
    RECRUIT,
    THREAT,
    WORKERS,
    Action,
    Activate,
    Advance,
    CancelPenalty,
    DrawPile,
    End,
    Expose,
    FireChoice,
    PenaltyOrder,
    PlagueDiscard,
    Play,
    Roll,
    Step,
)
from .cards import CARD_COLOUR, CARD_PERSON, CARD_PRICE, COLOURS, PERSONS, card_of
from .hidden import determinize
from .observation import House, Observation, observe
from .params import Params
from .scoring import final_points
from .state import State, new_game

__all__ = [
    "ACTION_NAMES", "CANAL", "CARD_COLOUR", "CARD_PERSON", "CARD_PRICE", "COLOURS", "FIRE_EMPTY",
    "FIRE_HOUSE", "FIRE_SECTION_A", "FIRE_SECTION_B", "GUILDERS", "HOUSE", "PERSONS", "RECRUIT", "THREAT",
    "WORKERS", "Action", "Activate", "Advance", "CancelPenalty", "DrawPile", "End", "Expose", "FireChoice",
    "House", "Observation", "Params", "PenaltyOrder", "PlagueDiscard", "Play", "Roll", "State", "Step",
    "card_of", "determinize", "final_points", "new_game", "observe",
]  # fmt: skip
