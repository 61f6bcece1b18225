"""The plugin's wire, secrecy, words and views for Bruges."""

from __future__ import annotations

import random

import pytest

from sdk.games.bruges.actions import WORKERS, DrawPile, End, Expose, FireChoice, Play
from sdk.games.bruges.decisions import DECISIONS
from sdk.games.bruges.plugin import PLUGIN
from sdk.games.bruges.protocol import bruges_pb2 as pb
from sdk.games.bruges.wire import decode_observation, encode_observation
from sdk.games.decisions import DecisionContext, MalformedReplyError

from .builders import at_turn, c, table


def test_every_decision_kind_of_b24_is_declared_once() -> None:
    assert DECISIONS.kinds == (
        "draw_pile", "penalty_order", "cancel_penalty", "plague_discard", "fire_choice",
        "advance_reputation", "take_turn", "extra_play",
    )  # fmt: skip


def test_an_observation_crosses_the_wire_unchanged() -> None:
    state = at_turn(
        3,
        hands={0: [c("cook", "red"), c("nun", "blue")]},
        houses={1: [(c("cook", "blue"), c("lawyer", "red"))]},
    )
    for seat in range(3):
        obs = PLUGIN.observe(state, seat)
        assert (
            decode_observation(pb.Observation.FromString(encode_observation(obs).SerializeToString())) == obs
        )


def test_a_reply_without_an_action_is_malformed() -> None:
    spec = DECISIONS["take_turn"]
    with pytest.raises(MalformedReplyError):
        spec.decode_reply(pb.TakeTurnReply(decision_id=1))
    reply = spec.encode_reply(FireChoice(0, 5), 3)
    assert spec.decode_reply(reply) == FireChoice(0, 5)


def test_other_hands_show_colours_only_and_house_cards_are_secret() -> None:
    house = c("cook", "blue")
    state = at_turn(2, hands={0: [c("cook", "red")], 1: [c("nun", "red")]}, houses={1: [(house, -1)]})
    obs = PLUGIN.observe(state, 0)
    assert obs.hand == (c("cook", "red"),) and obs.hand_colours[1] == (0, 0, 1, 0, 0)
    assert obs.houses[1][0].card == -1 and PLUGIN.observe(state, 1).houses[1][0].card == house
    text = PLUGIN.render(state, 0)
    assert "Nun" not in text and "Cook" in text
    assert "Nun" in PLUGIN.render(state)


def test_the_request_never_depends_on_hidden_cards() -> None:
    state = table(2)
    state.apply(DrawPile(0))
    state.apply(Expose(0, state.pool[5]))
    context = DecisionContext("m", 1, 0, 1000, 1000)
    spec = DECISIONS["draw_pile"]
    mine = spec.encode_request(PLUGIN.observe(state, 0), context).SerializeToString()
    for k in range(5):
        twin = PLUGIN.resample_hidden(state, 0, random.Random(k))
        assert spec.encode_request(PLUGIN.observe(twin, 0), context).SerializeToString() == mine


def test_step_words_hide_what_a_seat_may_not_learn() -> None:
    state = table(2)
    assert PLUGIN.describe(state, DrawPile(1)) == "draws from pile 2"
    chance = new_state = PLUGIN.new_state(2, {})
    assert "card on top" in str(PLUGIN.describe(chance, Expose(0, c("prince", "yellow")), 1))
    assert "Prince" in str(PLUGIN.describe(new_state, Expose(0, c("prince", "yellow"))))
    turn = at_turn(2, hands={0: [c("cook", "red"), c("nun", "red")]})
    assert "house" in str(PLUGIN.describe(turn, Play(c("cook", "red"), 5, 2), 1)) and "Cook" not in str(
        PLUGIN.describe(turn, Play(c("cook", "red"), 5, 2), 1)
    )
    assert PLUGIN.describe(turn, Play(c("cook", "red"), WORKERS), 1) == "plays red Cook for workers"


def test_default_action_is_safe_and_deterministic() -> None:
    state = at_turn(2, hands={0: [c("cook", "red"), c("nun", "red")]})
    assert PLUGIN.default_action(state) == state.legal_actions()[0]
    state.apply(Play(c("cook", "red"), WORKERS))
    state2 = at_turn(2, hands={0: [c("cook", "red")]}, houses={0: [(c("nun", "blue"), c("beggar", "red"))]})
    state2.apply(Play(c("cook", "red"), WORKERS))
    assert PLUGIN.default_action(state2) == End()


def test_view_is_plain_data_with_seats_and_piles() -> None:
    state = at_turn(2, hands={0: [c("cook", "red")]}, houses={0: [(c("nun", "blue"), c("beggar", "red"))]})
    data = PLUGIN.view(state, 1)
    assert data["seats"][0]["houses"][0]["person"]["id"] == "beggar:red"
    assert data["seats"][0]["houses"][0]["card"] is None and data["seats"][0]["hand"] is None
    assert [p["size"] for p in data["piles"]] == state.pile_size
    assert PLUGIN.summary(state)["persons"] == [["Beggar"], []]


def test_a_malformed_request_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="2 to 4 seats"):
        decode_observation(pb.Observation())
    state = at_turn(2, hands={0: [c("cook", "red")]})
    message = encode_observation(PLUGIN.observe(state, 0))
    del message.pile_sizes[:]
    with pytest.raises(ValueError, match="pile_sizes"):
        decode_observation(message)
    message = encode_observation(PLUGIN.observe(state, 0))
    message.options.add()  # an option carrying no action
    with pytest.raises(ValueError, match="carries no"):
        decode_observation(message)


def test_cards_drawn_blind_show_their_colours_only_in_the_drawers_view() -> None:
    state = table(2)
    state.apply(DrawPile(0))
    state.apply(Expose(0, state.pool[3]))
    mine = PLUGIN.view(state, 0)["seats"][0]
    assert mine["hand"] == [] and sum(mine["blind"].values()) == 1 and mine["hand_size"] == 1
    assert PLUGIN.view(state, 1)["seats"][0]["blind"] is None
    assert "drawn blind: 1" in PLUGIN.render(state, 0)


def test_every_seat_able_to_buy_a_reputation_step_is_asked_at_once() -> None:
    """B13: the purchases touch only each buyer's purse and pawn, so the plugin names them all; each of
    those seats sees its own yes/no, a seat unable to buy sees none, and the kind is the same for all."""
    from sdk.games.bruges.actions import Advance

    groups = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = PLUGIN.new_state(4, {})
        while not state.is_terminal() and groups < 6:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            if PLUGIN.decision_kind(state) == "advance_reputation":
                asked = PLUGIN.deciding_seats(state)
                order = [(state.start + i) % 4 for i in range(state.seat_idx, 4)]
                assert list(asked) == [s for s in order if state.can_advance(s)]
                for seat in range(4):
                    options = PLUGIN.observe(state, seat).options
                    assert options == ((Advance(True), Advance(False)) if seat in asked else ())
                groups += len(asked) > 1
            state.apply(PLUGIN.random_action(PLUGIN.observe(state, state.current_player), rng))
    assert groups >= 3
