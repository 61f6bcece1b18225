"""How often a bot beats the random bot, in-process with seeded chance, as the referee would ask it.

Every decision goes through the game's decision table both ways (the request encoded and decoded,
the reply encoded and decoded), so the bot sees exactly what a served bot would. Simultaneous
decisions are asked from the same state, then applied in order. Game ``i`` of a run draws its
chance from ``Random(seed * 1_000_003 + i)``, the bot's seat alternating 0, 1, 0, ...
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bots.random import RandomBot
from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.games.registry import get_game
from server.intervals import wilson


@dataclass(frozen=True, slots=True)
class Strength:
    """Sole first places of the bot in ``games`` two-player games, and their 95 % Wilson interval."""

    games: int
    wins: int

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins / self.games, self.games)


def play(game: str, bot: Bot, seat: int, seed: int, match_id: str) -> bool:
    """One two-player game of ``bot`` in ``seat`` against the random bot: True when it is sole first."""
    plugin = get_game(game)
    bots: list[Bot] = [RandomBot(), RandomBot()]
    bots[seat] = bot
    rng = random.Random(seed)
    state = plugin.new_state(2, {})
    asked = [0, 0]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        spec = plugin.decisions[plugin.decision_kind(state)]
        replies = []
        for deciding in plugin.deciding_seats(state):
            asked[deciding] += 1
            context = DecisionContext(match_id, asked[deciding], deciding, 5000, 60000, game)
            request = spec.encode_request(plugin.observe(state, deciding), context)
            action = bots[deciding].decide(spec.kind, spec.decode_request(request), context)
            replies.append(spec.decode_reply(spec.encode_reply(action, context.decision_id)))
        for reply in replies:
            state.apply(reply)
    ranks = state.ranks()
    return ranks[seat] == 1 and ranks.count(1) == 1


def strength(game: str, bot: Bot, games: int, seed: int) -> Strength:
    """``bot`` against random over ``games`` seeded games, its seat alternating."""
    wins = sum(play(game, bot, i % 2, seed * 1_000_003 + i, f"strength-{seed}-{i}") for i in range(games))
    return Strength(games, wins)
