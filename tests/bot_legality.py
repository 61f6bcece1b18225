"""Check a bot the way it is really asked: each request built by the game's decision table from the
seat's observation, decoded as a bot server decodes it, the reply encoded and decoded again, and every
answer applied with all rules checked, so an illegal answer raises."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.games.play import play_to_end
from sdk.games.registry import get_game


def ask_over_the_wire(bot: Bot, game: str, state: Any, seat: int, context: DecisionContext) -> Any:
    """The action ``bot`` answers to the pending decision, after a full trip through the codecs."""
    plugin = get_game(game)
    kind = plugin.decision_kind(state)
    spec = plugin.decisions[kind]
    request = spec.encode_request(plugin.observe(state, seat), context)
    received = spec.request_type.FromString(request.SerializeToString())
    action = bot.decide(kind, spec.decode_request(received), context)
    reply = spec.reply_type.FromString(spec.encode_reply(action, context.decision_id).SerializeToString())
    return spec.decode_reply(reply)


def check_every_answer_is_legal(
    bot: Bot,
    games: int,
    players: Callable[[int], int],
    *,
    game: str = "saint_malo",
    params: Mapping[str, Any] | None = None,
    asks: Callable[[Any, int], bool] = lambda state, seat: seat == 0,
) -> None:
    """Play ``games`` games (``players(game)`` seats); ``bot`` answers where ``asks(state, seat)``.

    Random legal actions play the other decisions. Fails unless every kind of decision the game
    declares was asked of the bot at least once.
    """
    plugin = get_game(game)
    asked = dict.fromkeys(plugin.decisions.kinds, 0)
    for number in range(games):
        rng = random.Random(number)
        counts = [0] * players(number)

        def answer(
            state: Any, number: int = number, rng: random.Random = rng, counts: list[int] = counts
        ) -> Any:
            seat = state.current_player
            counts[seat] += 1
            if not asks(state, seat):
                return plugin.random_action(plugin.observe(state, seat), rng)
            context = DecisionContext(f"legal-{number}", counts[seat], seat, 1000, 10_000, game)
            asked[plugin.decision_kind(state)] += 1
            return ask_over_the_wire(bot, game, state, seat, context)

        play_to_end(plugin, [answer] * players(number), rng, params=params)
    assert all(asked.values()), f"some decisions were never asked: {asked}"
