"""Every installed game's derived codecs, as a property over random games: a request decoded the
way a bot decodes it encodes again to the very same bytes, and every legal action's reply decodes
to that action."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdk.games.decisions import DecisionContext
from sdk.games.registry import get_game

from .example_install import installed_games_with_example

GAMES = installed_games_with_example()
MAX_DECISIONS = 60


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(0, 3))
def test_requests_and_replies_survive_the_wire(name: str, seed: int, players: int) -> None:
    plugin = get_game(name)
    rng = random.Random(seed)
    count = plugin.min_players + players % (plugin.max_players - plugin.min_players + 1)
    state = plugin.new_state(count, {})
    decisions = 0
    while not state.is_terminal() and decisions < MAX_DECISIONS:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player
        spec = plugin.decisions[plugin.decision_kind(state)]
        context = DecisionContext("codec", decisions + 1, seat, 1000, 5000)
        request = spec.encode_request(plugin.observe(state, seat), context)
        wire = request.SerializeToString()
        received = spec.decode_request(spec.request_type.FromString(wire))
        assert spec.encode_request(received, context).SerializeToString() == wire
        for action in rng.sample(state.legal_actions(), min(5, len(state.legal_actions()))):
            reply = spec.reply_type.FromString(spec.encode_reply(action, decisions).SerializeToString())
            assert spec.decode_reply(reply) == action
        state.apply(plugin.random_action(received, rng))
        decisions += 1
    assert decisions > 0
