"""Cards (B3, B20), setup (B4, B5) and the chance form of the piles."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sdk.games.bruges.actions import DrawPile, Expose, Roll
from sdk.games.bruges.cards import (
    CARD_COLOUR,
    CARD_PERSON,
    GROUPS,
    NUM_CARDS,
    PERSONS,
    card_from_id,
    card_id,
)
from sdk.games.bruges.params import Params
from sdk.games.bruges.phases import DRAW_PILE
from sdk.games.bruges.state import new_game
from sdk.games.errors import IllegalActionError

from .builders import count_cards, table


def test_165_cards_each_person_once_in_each_colour() -> None:
    assert NUM_CARDS == 165 and len(PERSONS) == 33
    pairs = {(CARD_PERSON[c], CARD_COLOUR[c]) for c in range(NUM_CARDS)}
    assert len(pairs) == 165
    assert card_id(card_from_id("prince:yellow")) == "prince:yellow"
    with pytest.raises(ValueError):
        card_from_id("prince:green")


def test_the_person_table_of_b20() -> None:
    assert len(GROUPS) == 11 and all(n == 3 for n in Counter(p.group for p in PERSONS).values())
    assert Counter(p.price for p in PERSONS) == {0: 1, 3: 9, 6: 16, 9: 5, 12: 2}
    kinds = {p.id: (p.kind, p.cost) for p in PERSONS}
    assert kinds["prince"] == ("worker", 4) and kinds["servant"] == ("worker", 2)
    assert kinds["cook"] == ("worker", 1) and kinds["shipowner"] == ("worker", 0)
    assert kinds["jailer"] == ("worker", 3) and kinds["thief"] == ("worker", 3)
    assert {p.id for p in PERSONS if p.kind == "immediate"} == {"poet", "jester", "alchemist"}
    assert {p.id for p in PERSONS if p.kind == "final"} == {"count", "mayor", "bishop", "banker", "painter"}
    assert {p.id for p in PERSONS if p.kind == "once_per_round"} == {
        "nun",
        "accountant",
        "beggar",
        "smuggler",
    }


@pytest.mark.parametrize(("players", "sizes"), [(2, [33, 33, 99]), (3, [50, 49, 66]), (4, [66, 66, 33])])
def test_pile_sizes_by_players(players: int, sizes: list[int]) -> None:
    state = new_game(players)
    assert [*state.pile_size, state.extra_size] == sizes


def test_setup_turns_pile_one_then_pile_two_and_nothing_else() -> None:
    state = new_game(3)
    assert state.is_chance_node() and state.exposing == [0, 1]
    with pytest.raises(IllegalActionError, match="B4"):
        state.apply(Expose(1, 0))
    with pytest.raises(IllegalActionError):
        state.apply(Roll((1, 1, 1, 1, 1)))
    state.apply(Expose(0, 7))
    state.apply(Expose(1, 9))
    assert state.pile_top == [7, 9] and 7 not in state.pool and len(state.pool) == 163
    assert state.decision == DRAW_PILE and state.decider == 0
    assert count_cards(state) == 165


def test_player_setup_b5() -> None:
    state = table(4)
    for seat in range(4):
        assert state.workers[seat] == [1] * 5
        assert state.guilders[seat] == 5 and state.score[seat] == 5 and state.rep[seat] == 0
        assert state.majorities[seat] == [False] * 3 and not state.hands[seat] and not state.houses[seat]
    assert state.start == 0 and state.supply == [9] * 5 and state.statue_stack == [7, 6, 5, 4, 3, 2]


def test_params_change_the_setup_and_bad_ones_are_refused() -> None:
    params = Params.from_json({"start_guilders": 8, "statues": [9, 1], "hand_size": 3})
    state = new_game(2, params)
    assert state.guilders == [8, 8] and state.statue_stack == [9, 1]
    assert Params.from_json(params.to_json()) == params
    for bad in ({"hand_size": 0}, {"colour": 1}, {"canal_colours": [["red"] * 5]}, {"statues": "x"}):
        with pytest.raises(ValueError, match="game parameter"):
            Params.from_json(bad)
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(5)


def test_chance_draws_exposures_uniformly_from_the_unplaced_cards() -> None:
    state = new_game(2)
    rng = random.Random(1)
    seen = {state.sample_chance(rng).card for _ in range(2000)}  # type: ignore[union-attr]
    assert len(seen) > 150
    state.apply(Expose(0, 0))
    state.apply(Expose(1, 1))
    state.apply(DrawPile(0))
    assert state.exposing == [0] and state.hands[0] == [0]
