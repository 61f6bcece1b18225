"""Steps as data, and refused actions: the rule is named and the state is left as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sdk.games import cities as ci

from .builders import E, cid, event_position, expect_illegal, position

STEPS: list[ci.Step] = [
    ci.Shuffle(ci.Deck.CITY, (3, 1, 2)),
    ci.Shuffle(ci.Deck.EVENT, (E.ATTACK, E.FLOOD)),
    ci.Draw(ci.Deck.CITY),
    ci.Draw(ci.Deck.EVENT),
    ci.Pass(),
    ci.Play(E.BARBARIANS),
    ci.Play(E.ATTACK, target=2, take_city=5),
    ci.Play(E.TRADE, target=1, give_city=0, take_city=9),
    ci.Play(E.UNREST, side=ci.Side.EAST),
    ci.Play(E.UNIFICATION, empire=ci.Empire.CELTS),
    ci.Play(E.EDUCATION, education=ci.EducationMode.EXCHANGE, returns=(E.ATTACK, E.ATTACK, E.CURSE)),
    ci.Play(E.EDUCATION, education=ci.EducationMode.DISCARD, target=3),
    ci.React(None),
    ci.React(E.GREAT_PROTECTION),
    ci.Exchange(True),
    ci.Exchange(False),
    ci.GiveCity(53),
    ci.GiveEvent(E.PLAGUE),
]


@pytest.mark.parametrize("step", STEPS, ids=[type(s).__name__ for s in STEPS])
def test_steps_round_trip_through_json(step: ci.Step) -> None:
    data = json.loads(json.dumps(ci.step_to_json(step)))
    assert ci.step_from_json(data) == step
    assert hash(ci.step_from_json(data)) == hash(step)


def test_play_keeps_returns_sorted() -> None:
    assert ci.Play(E.EDUCATION, returns=(E.FLOOD, E.ATTACK)).returns == (E.ATTACK, E.FLOOD)
    assert ci.Play(E.EDUCATION, returns=(E.FLOOD, E.ATTACK)) == ci.Play(
        E.EDUCATION, returns=(E.ATTACK, E.FLOOD)
    )


def test_step_json_uses_readable_names() -> None:
    assert ci.step_to_json(ci.Play(E.ATTACK, target=1, take_city=0)) == {
        "type": "play",
        "event": "attack",
        "target": 1,
        "take_city": 0,
    }
    assert ci.step_to_json(ci.React(None)) == {"type": "react", "card": None}


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "event": "no_such_event"},
        {"type": "play", "event": "attack", "take_city": 54},
        {"type": "play", "event": "attack", "take_city": True},
        {"type": "play", "event": "attack", "bogus": 1},
        {"type": "play", "event": "unrest", "side": "north"},
        {"type": "play", "event": "unification", "empire": 8},
        {"type": "play", "event": "education", "education": "teach"},
        {"type": "play", "event": "education", "returns": "attack"},
        {"type": "shuffle", "deck": "city", "order": [1, "x"]},
        {"type": "shuffle", "deck": "city", "order": "123"},
        {"type": "shuffle", "deck": "attic", "order": []},
        {"type": "draw", "take": "both"},
        {"type": "exchange", "accept": "yes"},
        {"type": "give_city", "city": -1},
        {"type": "give_event", "event": 3},
        {"type": "react"},
        [],
    ],
)
def test_malformed_steps_raise_value_error(data: Any) -> None:
    with pytest.raises(ValueError, match="Cities step"):
        ci.step_from_json(data)


def test_a_non_cities_step_is_refused() -> None:
    state = position(hands={0: [E.BARBARIANS]})
    expect_illegal(state, "pass", "C4 turn")  # type: ignore[arg-type]


def test_shuffles_refused_unless_due_and_exact() -> None:
    state = ci.new_game(2)
    expect_illegal(state, ci.Shuffle(ci.Deck.EVENT, tuple(ci.EVENT_CARDS)), "C8 shuffle")
    expect_illegal(state, ci.Shuffle(ci.Deck.CITY, tuple(range(53))), "C8 shuffle")
    expect_illegal(state, ci.Shuffle(ci.Deck.CITY, (*range(53), 0)), "C8 shuffle")
    expect_illegal(state, ci.Shuffle(ci.Deck.CITY, (*range(53), "x")), "C8 shuffle")  # type: ignore[arg-type]
    expect_illegal(state, ci.Pass(), "C4 turn")
    played = position(hands={0: [E.BARBARIANS]})
    expect_illegal(played, ci.Shuffle(ci.Deck.CITY, ()), "C8 shuffle")
    with pytest.raises(ci.IllegalActionError):
        played.sample_chance(__import__("random").Random(1))


def test_refused_plays_name_the_rule_and_leave_the_state_alone() -> None:
    state = position(held={0: ["Rome"], 1: ["Athens"]}, hands={0: [E.ATTACK, E.BASIC_PROTECTION]})
    expect_illegal(state, ci.Play(E.FLOOD), "C9 playability")  # not in hand
    expect_illegal(state, ci.Play(E.BASIC_PROTECTION), "C9 playability")
    expect_illegal(state, ci.Play(99), "C9 playability")  # type: ignore[arg-type]
    expect_illegal(state, ci.Play(E.ATTACK, target=5, take_city=cid("Athens")), "C10 choices")
    expect_illegal(state, ci.Play(E.ATTACK, target=True, take_city=cid("Athens")), "C10 choices")
    expect_illegal(state, ci.React(None), "C12 protection")
    expect_illegal(state, ci.Exchange(True), "C11 Friendly exchange")
    expect_illegal(state, ci.GiveEvent(E.ATTACK), "C10 giving up cards")


def test_refused_gives_leave_the_state_alone() -> None:
    state = event_position(held={1: ["Rome", "Capua", "Milan", "Tarraco"]}, hands={0: [E.BARBARIANS]})
    state.apply(ci.Play(E.BARBARIANS))
    expect_illegal(state, ci.GiveCity(cid("Athens")), "C10 giving up cards")
    expect_illegal(state, ci.GiveCity(-1), "C10 giving up cards")
    expect_illegal(state, ci.GiveCity(True), "C10 giving up cards")
    expect_illegal(state, ci.Play(E.CURSE, target=1), "C4 turn")
    exchange = event_position(held={0: ["Rome"], 1: ["Athens"]}, hands={0: [E.FRIENDLY_EXCHANGE]})
    exchange.apply(ci.Play(E.FRIENDLY_EXCHANGE, target=1, give_city=cid("Rome"), take_city=cid("Athens")))
    expect_illegal(exchange, ci.Exchange(1), "C11 Friendly exchange")  # type: ignore[arg-type]


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    state = position(city_rest=False, event_rest=False)
    state.quiet = True
    state.apply(ci.Pass())
    assert state.is_terminal() and state.legal_actions() == []
    expect_illegal(state, ci.Pass(), "C4 turn")
    with pytest.raises(ci.IllegalActionError):
        state.sample_action(__import__("random").Random(0))
