"""C3 sizes and the parameters a bracket may set."""

from __future__ import annotations

from collections import Counter

import pytest

from sdk.games import cities as ci

from .builders import names

E = ci.EventType
Emp = ci.Empire


@pytest.mark.parametrize(
    ("size", "empires", "neutral", "events"),
    [
        ("full", tuple(Emp), True, 75),
        ("regular", (Emp.ROME, Emp.GREECE, Emp.CARTHAGE, Emp.EGYPT, Emp.PERSIA, Emp.CELTS), True, 71),
        ("fast", (Emp.ROME, Emp.GREECE, Emp.EGYPT, Emp.PERSIA), True, 67),
        ("very-short", (Emp.GREECE, Emp.EGYPT, Emp.PERSIA), False, 64),
    ],
)
def test_c3_sizes(size: str, empires: tuple[ci.Empire, ...], neutral: bool, events: int) -> None:
    params = ci.Params(size=size)
    assert params.empires == empires
    assert params.city_mask.bit_count() == 6 * len(empires) + (6 if neutral else 0)
    assert bool(params.city_mask & ci.NEUTRAL_MASK) == neutral
    assert len(params.events) == events == sum(params.event_counts)
    absent = [e for e in Emp if e not in empires]
    for e in absent:
        assert params.event_counts[ci.COMMANDERS[e]] == 0
        assert params.event_counts[ci.ANGERS[e]] == 0
    for e in empires:
        assert params.event_counts[ci.COMMANDERS[e]] == 1 and params.event_counts[ci.ANGERS[e]] == 1
    state = ci.new_game(3, params)
    assert sorted(state.city_deck) == ci.cities_of(params.city_mask)
    assert Counter(state.event_deck) == Counter(int(ev) for ev in params.events)


def test_c3_economic_crisis_leaves_only_when_both_disciplines_are_absent() -> None:
    assert ci.Params(size="fast").event_counts[E.ECONOMIC_CRISIS_METALLURGY_ARMY] == 1  # Rome is in
    very_short = ci.Params(size="very-short").event_counts
    assert very_short[E.ECONOMIC_CRISIS_METALLURGY_ARMY] == 0  # Celts and Rome both absent
    assert very_short[E.ECONOMIC_CRISIS_ENGINEERING_CULTURE] == 1
    assert very_short[E.ECONOMIC_CRISIS_AGRICULTURE_SEAFARING] == 1
    assert very_short[E.ECONOMIC_CRISIS_SLAVERY_FINANCES] == 1
    assert very_short[E.GAMES_ARMY] == 1  # Games name disciplines, never removed


def test_c3_wonder_cities_in_every_size() -> None:
    for size in ci.SIZES:
        assert ci.Params(size=size).city_mask & ci.WONDER_MASK == ci.WONDER_MASK
    assert names(ci.Params(size="very-short").city_mask & ci.CAPITAL_MASK) == {
        "Athens",
        "Memfis",
        "Persepolis",
    }


def test_c3_both_decks_are_shuffled_by_chance_and_nothing_is_dealt() -> None:
    state = ci.new_game(4)
    assert state.current_player == ci.CHANCE and state.is_chance_node()
    assert state.chance == ci.Deck.CITY
    assert all(size == 0 for size in state.hand_sizes) and not any(state.held)
    shuffle = state.sample_chance(__import__("random").Random(1))
    assert shuffle.deck == ci.Deck.CITY and sorted(shuffle.order) == list(range(54))
    state.apply(shuffle)
    assert state.chance == ci.Deck.EVENT
    events = state.sample_chance(__import__("random").Random(2))
    assert Counter(events.order) == Counter(ci.EVENT_CARDS)
    state.apply(events)
    assert not state.is_chance_node() and state.round == 1 and state.active == 0


def test_params_json_round_trip_and_defaults() -> None:
    assert ci.Params() == ci.Params(size="full", max_rounds=60)
    for params in (ci.Params(), ci.Params(size="very-short", max_rounds=7)):
        assert ci.Params.from_json(params.to_json()) == params
    assert ci.Params.from_json({}) == ci.Params()
    assert ci.Params.from_json({"max_rounds": 1000}).max_rounds == 1000


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"size": "huge"}, "size"),
        ({"size": 3}, "size"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"max_rounds": 1001}, "max_rounds"),
        ({"max_rounds": True}, "max_rounds"),
        ({"max_rounds": "60"}, "max_rounds"),
        ({"max_rounds": 2.0}, "max_rounds"),
        ({"rounds": 5}, "rounds"),
    ],
)
def test_params_from_json_refuses_bad_values(data: dict[str, object], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        ci.Params.from_json(data)


@pytest.mark.parametrize("players", [1, 7, 0, True])
def test_new_game_refuses_table_sizes(players: int) -> None:
    with pytest.raises(ValueError, match="2-6 players"):
        ci.new_game(players)
