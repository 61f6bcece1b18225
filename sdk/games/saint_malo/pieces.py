"""The vocabulary of the game: die symbols, people, decisions and score parts."""

from __future__ import annotations

from enum import Enum, IntEnum


class Symbol(IntEnum):
    """A die face. Each of the six is equally likely."""

    LOG = 0
    CRATE = 1
    WALL = 2
    CROSS = 3
    HEAD = 4
    SWORDS = 5


#: The five symbols a player may choose to score; swords are never chosen.
SCORING_SYMBOLS: tuple[Symbol, ...] = tuple(s for s in Symbol if s is not Symbol.SWORDS)


class Person(IntEnum):
    """The seven person types; a head placement adds exactly one of them."""

    CITIZEN = 0
    SOLDIER = 1
    PRIEST = 2
    ARCHITECT = 3
    MERCHANT = 4
    JUGGLER = 5
    NOBLE = 6

    @property
    def level(self) -> int:
        """How many head dice this person uses."""
        return PERSON_LEVEL[self]


PERSON_LEVEL: tuple[int, ...] = (1, 2, 2, 3, 3, 4, 5)
#: A bonus person (from a completed wall side) may be any person of level 1-3.
MAX_BONUS_LEVEL = 3


class Decision(Enum):
    """What the player to move must decide next (ruling R7 gives the order)."""

    KEEP = "keep"
    CHOOSE = "choose"
    ROTATE = "rotate"
    PLACE = "place"
    BONUS_PERSON = "bonus_person"


class ScorePart(IntEnum):
    """Where a player's points came from; the parts always add up to the score."""

    CITIZENS = 0
    PRIESTS = 1
    JUGGLERS = 2
    NOBLES = 3
    HOUSES = 4
    WALL_BONUSES = 5
    FULL_CITY = 6
    COINS = 7
    LOGS = 8
    CHURCHES = 9
    CANNONS = 10


#: Parts scored during play; the others are added at the end of the game.
IN_PLAY_PARTS: tuple[ScorePart, ...] = tuple(ScorePart)[: ScorePart.WALL_BONUSES + 1]

# Points and costs fixed by the rulebook.
ROTATION_COST = 2
DELIVERY_COST = 2
COIN_BONUS = 2
VP_BONUS = 3
HOUSE_VP = 3
NOBLE_VP = 7
JUGGLER_VP_PER_TYPE = 2
FULL_CITY_VP = 5
CANNON_PENALTY = 5
CHURCH_SERIES_VP: tuple[int, ...] = (0, 1, 4, 8, 13, 20)
PIRATE_STRENGTHS: tuple[int, ...] = (1, 3, 6, 8, 10, 12)
NUM_DICE = 5
ROLLS_PER_TURN = 3
