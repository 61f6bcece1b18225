"""The heuristic bot answers every decision kind with one of the listed options, through the wire."""

from __future__ import annotations

import random

from bots.bruges.bot import BrugesHeuristicBot
from sdk.games.bruges.decisions import DECISIONS
from sdk.games.bruges.plugin import PLUGIN
from sdk.games.decisions import DecisionContext


def test_the_heuristic_bot_plays_whole_games_legally_from_decoded_requests() -> None:
    bot = BrugesHeuristicBot()
    kinds: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = PLUGIN.new_state(3, {})
        count = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            seat, kind = state.current_player, PLUGIN.decision_kind(state)
            count += 1
            spec = DECISIONS[kind]
            context = DecisionContext("m", count, seat, 1000, 1000, "bruges")
            request = spec.request_type.FromString(
                spec.encode_request(PLUGIN.observe(state, seat), context).SerializeToString()
            )
            action = bot.decide(kind, spec.decode_request(request), context)
            assert action in state.legal_actions()
            state.apply(action)
            kinds.add(kind)
    assert {"draw_pile", "take_turn", "advance_reputation"} <= kinds
    assert not DECISIONS.missing_methods(type(bot)) or hasattr(bot, "decide")
