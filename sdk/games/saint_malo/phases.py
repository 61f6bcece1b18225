"""The phases of a turn, in turn order: what the state waits for. A leaf module the state, its rules
and its wire format all import (the decision kinds are :class:`~sdk.games.saint_malo.pieces.Decision`)."""

from __future__ import annotations

from .pieces import NUM_DICE, Decision

CHANCE, TERMINAL = -1, -2
ROLL, KEEP, CHOOSE, ROTATE, PLACE, BONUS, OVER = range(7)
PHASE_NAMES = ("roll", "keep", "choose", "rotate", "place", "bonus_person", "over")
DECISIONS: dict[int, Decision] = {
    KEEP: Decision.KEEP,
    CHOOSE: Decision.CHOOSE,
    ROTATE: Decision.ROTATE,
    PLACE: Decision.PLACE,
    BONUS: Decision.BONUS_PERSON,
}
#: The five dice as a mask (a roll of all of them, a keep of none).
ALL_DICE = (1 << NUM_DICE) - 1
