"""A Saint Malo bot's every answer checked over the wire, including the rare bonus-person decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sdk.bot import Bot
from sdk.games import saint_malo as sm
from tests.bot_legality import check_every_answer_is_legal

#: Every side grants a bonus person, so the bonus-person decision comes up often.
PERSON_SIDES = sm.Params(side_bonuses=("person", "person", "person", "person")).to_json()


def _seat_zero_and_bonus_persons(state: Any, seat: int) -> bool:
    return seat == 0 or state.decision is sm.Decision.BONUS_PERSON


def check_saint_malo_bot(bot: Bot, games: int, players: Callable[[int], int]) -> None:
    """``bot`` plays seat 0 and places every seat's bonus persons; every answer must be legal."""
    check_every_answer_is_legal(
        bot, games, players, game="saint_malo", params=PERSON_SIDES, asks=_seat_zero_and_bonus_persons
    )
