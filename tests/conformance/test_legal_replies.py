"""A request that lists its legal replies (a ``legal`` field of the reply's type) lists exactly the
engine's legal actions, in the engine's order: a bot that copies one is never refused."""

from __future__ import annotations

import random

import pytest

from sdk.games.decisions import DecisionContext
from sdk.games.registry import get_game

from .example_install import installed_games_with_example


def _listing_kinds(name: str) -> set[str]:
    """The decision kinds of ``name`` whose requests list their legal replies."""
    kinds = set()
    for spec in get_game(name).decisions:
        field = spec.request_type.DESCRIPTOR.fields_by_name.get("legal")
        if field is not None and field.message_type is spec.reply_type.DESCRIPTOR:
            kinds.add(spec.kind)
    return kinds


def test_some_game_lists_legal_replies() -> None:
    assert "towers" in _listing_kinds("masons")


@pytest.mark.parametrize("name", installed_games_with_example())
@pytest.mark.parametrize("seed", [1, 2])
def test_the_listed_replies_are_the_legal_actions(name: str, seed: int) -> None:
    listing = _listing_kinds(name)
    if not listing:
        pytest.skip(f"{name}'s requests list no replies")
    plugin = get_game(name)
    rng = random.Random(seed)
    state = plugin.new_state(plugin.min_players + seed % 2, {})
    seen: set[str] = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        kind = plugin.decision_kind(state)
        seat = plugin.deciding_seats(state)[0]
        spec = plugin.decisions[kind]
        if kind in listing:
            request = spec.encode_request(
                plugin.observe(state, seat), DecisionContext("legal", 1, seat, 1000, 0)
            )
            wire = spec.request_type.FromString(request.SerializeToString())
            listed = [spec.decode_reply(reply) for reply in wire.legal]  # type: ignore[attr-defined]
            assert listed == state.legal_actions(), kind
            assert all(reply.decision_id == 0 for reply in wire.legal)  # type: ignore[attr-defined]
            seen.add(kind)
        state.apply(rng.choice(state.legal_actions()))
    assert seen, "no request listed its replies"
