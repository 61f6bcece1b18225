"""Check a bot the way it is really asked: on the state decoded from the wire, every answer applied
with all rules checked, so an illegal answer raises."""

from __future__ import annotations

import random
from collections.abc import Callable

from sdk.games import saint_malo as sm
from sdk.games.plugin import DecisionContext
from sdk.games.saint_malo.bot import SaintMaloBot
from sdk.games.saint_malo.wire import decode_observation, encode_observation


def check_every_answer_is_legal(bot: SaintMaloBot, games: int, players: Callable[[int], int]) -> None:
    """Play ``games`` games (``players(game)`` seats) with ``bot`` at seat 0, random players elsewhere.

    Every side grants a bonus person, so the rare bonus-person decision comes up; the bot places
    the bonus persons of every seat. Fails unless every kind of decision was asked at least once.
    """
    methods: dict[sm.Decision, Callable[[sm.State, DecisionContext], sm.Action]] = {
        sm.Decision.KEEP: bot.keep,
        sm.Decision.CHOOSE: bot.choose,
        sm.Decision.ROTATE: bot.rotate,
        sm.Decision.PLACE: bot.place,
        sm.Decision.BONUS_PERSON: bot.bonus_person,
    }
    params = sm.Params(side_bonuses=("person", "person", "person", "person"))
    asked: dict[sm.Decision, int] = dict.fromkeys(sm.Decision, 0)
    for game in range(games):
        rng = random.Random(game)
        state = sm.new_game(players(game), params)
        decision_id = 0
        while not state.is_terminal():
            decision = state.decision
            if decision is None:
                state.apply(state.sample_chance(rng))
                continue
            decision_id += 1
            if state.current == 0 or decision is sm.Decision.BONUS_PERSON:
                context = DecisionContext(f"legal-{game}", decision_id, state.current, 1000, 10_000)
                action = methods[decision](decode_observation(encode_observation(state), decision), context)
                asked[decision] += 1
            else:
                action = state.sample_action(rng)
            state.apply(action)
    assert all(asked.values()), f"some decisions were never asked: {asked}"
