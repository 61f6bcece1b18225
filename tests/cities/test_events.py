"""C11: every event, precisely (one or more tests per event kind)."""

from __future__ import annotations

import pytest

from sdk.games import cities as ci

from .builders import (
    D,
    E,
    back_to_seat_0,
    cid,
    decision_of,
    empire,
    event_position,
    expect_illegal,
    hand,
    keep_order,
    mask,
    names,
    play,
    position,
)

Emp = ci.Empire
PLAYABILITY = "C9 playability"


def record(state: ci.State) -> ci.PlayedEvent:
    return state.log[-1]


# --- Commanders ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("e", list(Emp), ids=[e.name for e in Emp])
def test_c11_commander_everyone_loses_every_city_of_its_empire(e: ci.Empire) -> None:
    six = empire(e)
    commander = ci.COMMANDERS[e]
    state = event_position(
        held={0: [six[1], "Lisbon"], 1: [six[0], six[2]], 2: ["Ur", six[3]]}, hands={0: [commander]}
    )
    deck_before = len(state.city_deck)
    play(state, commander)
    assert state.held == [mask("Lisbon"), 0, mask("Ur")]
    assert len(state.city_deck) == deck_before + 4
    assert {six[0], six[1], six[2], six[3]} <= names(ci.mask_of(*state.city_deck))
    assert [(o.kind, o.seat) for o in record(state).outcome] == [
        ("lose", 0),
        ("lose", 1),
        ("lose", 1),
        ("lose", 2),
    ]
    back_to_seat_0(state)


def test_c11_commander_of_an_empire_nobody_holds_is_not_playable() -> None:
    state = position(held={1: ["Rome"]}, hands={0: [E.COMMANDER_GREECE]})
    expect_illegal(state, ci.Play(E.COMMANDER_GREECE), PLAYABILITY)


# --- Festivals ----------------------------------------------------------------------------------------


def test_c11_big_festival_two_per_capital_one_per_neutral_in_seat_order() -> None:
    top = ["Sparta", "Syracuse", "Utica", "Gadiz", "Karalis", "Susa", "Sardes"]
    state = event_position(
        held={0: ["Rome", "Athens", "Lisbon"], 1: ["Knossos"], 2: ["Utica"]},
        hands={0: [E.BIG_FESTIVAL]},
        city_top=top,
    )
    play(state, E.BIG_FESTIVAL)
    assert names(state.held[0]) == {"Rome", "Athens", "Lisbon", *top[:5]}
    assert names(state.held[1]) == {"Knossos", "Susa"}
    assert names(state.held[2]) == {"Utica"}
    back_to_seat_0(state)


def test_c11_medium_festival_one_per_capital_and_one_for_any_neutral() -> None:
    state = event_position(
        held={0: ["Rome", "Lisbon", "Knossos"], 1: ["Athens", "Carthage"], 2: ["Petra"]},
        hands={0: [E.MEDIUM_FESTIVAL]},
        city_top=["Capua", "Milan", "Sparta", "Syracuse", "Utica"],
    )
    play(state, E.MEDIUM_FESTIVAL)
    assert names(state.held[0]) - {"Rome", "Lisbon", "Knossos"} == {"Capua", "Milan"}
    assert names(state.held[1]) - {"Athens", "Carthage"} == {"Sparta", "Syracuse"}
    assert names(state.held[2]) == {"Petra", "Utica"}


def test_c11_small_festival_capitals_only_and_a_short_deck() -> None:
    state = event_position(
        held={1: ["Rome", "Athens"], 2: ["Carthage"], 0: ["Lisbon"]},
        hands={0: [E.SMALL_FESTIVAL]},
        city_top=["Capua", "Milan"],
        city_rest=False,
    )
    play(state, E.SMALL_FESTIVAL)
    assert state.held[0] == mask("Lisbon")
    assert names(state.held[1]) == {"Rome", "Athens", "Capua", "Milan"}
    assert state.held[2] == mask("Carthage")  # the deck ran out before seat 2's turn came (C8)
    assert not state.city_deck


def test_c11_festival_unplayable_when_nobody_would_take_a_city() -> None:
    state = position(held={1: ["Capua"]}, hands={0: [E.SMALL_FESTIVAL, E.BIG_FESTIVAL]})
    expect_illegal(state, ci.Play(E.SMALL_FESTIVAL), PLAYABILITY)
    expect_illegal(state, ci.Play(E.BIG_FESTIVAL), PLAYABILITY)
    empty = position(held={1: ["Rome"]}, hands={0: [E.SMALL_FESTIVAL]}, city_rest=False)
    expect_illegal(empty, ci.Play(E.SMALL_FESTIVAL), PLAYABILITY)


# --- Unification and Charisma -------------------------------------------------------------------------


def test_c11_unification_takes_that_empire_from_every_other_player() -> None:
    greece = empire(Emp.GREECE)
    state = event_position(
        held={0: greece[:4], 1: [greece[4], "Rome"], 2: ["Ur"]},
        hands={0: [E.UNIFICATION]},
    )
    play(state, E.UNIFICATION, empire=Emp.GREECE)
    assert names(state.held[0]) == set(greece[:5])  # the sixth is in the deck, not on the table
    assert state.held[1] == mask("Rome")
    back_to_seat_0(state)


def test_c11_unification_needs_four_of_the_empire_and_someone_else_holding_one() -> None:
    greece = empire(Emp.GREECE)
    state = position(held={0: [*greece[:3], "Rome"], 1: greece[3:5]}, hands={0: [E.UNIFICATION]})
    expect_illegal(state, ci.Play(E.UNIFICATION, empire=Emp.GREECE), PLAYABILITY)
    alone = position(held={0: greece[:4], 1: ["Rome"]}, hands={0: [E.UNIFICATION]})
    expect_illegal(alone, ci.Play(E.UNIFICATION, empire=Emp.GREECE), PLAYABILITY)
    assert ci.Pass() in alone.legal_actions() and len(alone.legal_actions()) == 1


def test_c11_charisma_one_city_per_unification_in_hand() -> None:
    state = event_position(
        held={0: ["Rome", "Capua", "Athens", "Lisbon"]},
        hands={0: [E.CHARISMA, E.UNIFICATION, E.UNIFICATION]},
        city_top=["Sparta", "Utica", "Ur"],
    )
    play(state, E.CHARISMA)
    assert names(state.held[0]) == {"Rome", "Capua", "Athens", "Lisbon", "Sparta", "Utica"}
    assert hand(state, 0)[E.UNIFICATION] == 2  # the Unifications stay in hand


def test_c11_charisma_needs_four_cities_and_a_unification() -> None:
    three = position(held={0: ["Rome", "Capua", "Athens"]}, hands={0: [E.CHARISMA, E.UNIFICATION]})
    expect_illegal(three, ci.Play(E.CHARISMA), PLAYABILITY)
    none = position(held={0: ["Rome", "Capua", "Athens", "Ur"]}, hands={0: [E.CHARISMA]})
    expect_illegal(none, ci.Play(E.CHARISMA), PLAYABILITY)


# --- Anger of the gods --------------------------------------------------------------------------------


@pytest.mark.parametrize("e", list(Emp), ids=[e.name for e in Emp])
def test_c11_anger_of_the_gods_takes_one_regular_city_of_its_empire(e: ci.Empire) -> None:
    six = empire(e)
    anger = ci.ANGERS[e]
    state = event_position(held={1: [six[0], six[1], six[2]], 2: ["Lisbon"]}, hands={0: [anger]})
    expect_illegal(state, ci.Play(anger, target=1, take_city=cid(six[0])), "C10 choices")  # a capital
    expect_illegal(state, ci.Play(anger, target=2, take_city=cid("Lisbon")), "C10 choices")
    legal = [a for a in state.legal_actions() if isinstance(a, ci.Play) and a.event == anger]
    assert {(a.target, a.take_city) for a in legal} == {(1, cid(six[1])), (1, cid(six[2]))}
    play(state, anger, target=1, take_city=cid(six[2]))
    assert names(state.held[0]) == {six[2]}
    assert names(state.held[1]) == {six[0], six[1]}
    back_to_seat_0(state)


# --- Games --------------------------------------------------------------------------------------------


def test_c11_games_the_highest_total_takes_two_and_ties_share() -> None:
    # Army: Rome 3, Capua 3 | Athens 1 + Fuflona 1 (Etruscans' follower) ... seat 1 = 6, seat 2 = 6.
    state = event_position(
        held={0: ["Athens", "Fuflona"], 1: ["Rome", "Capua"], 2: ["Milan", "Tarraco"]},
        hands={0: [E.GAMES_ARMY]},
        city_top=["Lisbon", "Knossos", "Genova", "Madrid", "Petra"],
    )
    play(state, E.GAMES_ARMY)
    assert names(state.held[1]) == {"Rome", "Capua", "Lisbon", "Knossos"}
    assert names(state.held[2]) == {"Milan", "Tarraco", "Genova", "Madrid"}
    assert names(state.held[0]) == {"Athens", "Fuflona"}


def test_c11_games_winner_fixed_before_anyone_takes() -> None:
    state = event_position(
        held={0: ["Sparta"], 1: ["Gadiz"]},  # culture: seat 0 has 3, seat 1 has 0
        hands={0: [E.GAMES_CULTURE]},
        city_top=["Athens", "Syracuse", "Olympia"],
    )
    play(state, E.GAMES_CULTURE)
    assert names(state.held[0]) == {"Sparta", "Athens", "Syracuse"}
    assert state.held[1] == mask("Gadiz")


def test_c11_games_needs_a_positive_total() -> None:
    state = position(held={1: ["Lisbon"], 2: ["Rome"]}, hands={0: [E.GAMES_SEAFARING]})
    # Rome (capital) has 1 in seafaring: playable.
    assert ci.Play(E.GAMES_SEAFARING) in state.legal_actions()
    only_neutral = position(held={1: ["Lisbon"], 2: ["Capua"]}, hands={0: [E.GAMES_SEAFARING]})
    expect_illegal(only_neutral, ci.Play(E.GAMES_SEAFARING), PLAYABILITY)


# --- Plague -------------------------------------------------------------------------------------------


def test_c11_plague_one_capital_and_two_regular_or_four_regular() -> None:
    state = event_position(
        held={
            0: ["Rome", "Athens", "Capua", "Milan", "Lisbon"],
            1: ["Sparta", "Syracuse", "Utica", "Gadiz", "Ur"],
            2: ["Carthage", "Abydos"],
        },
        hands={0: [E.PLAGUE]},
    )
    play(state, E.PLAGUE)
    assert decision_of(state) == D.GIVE_CITY and state.current_player == 0
    assert state.observation(0).pending == ci.Pending(
        D.GIVE_CITY, cities=mask("Rome", "Athens", "Capua", "Milan", "Lisbon"), count=3
    )
    state.apply(ci.GiveCity(cid("Athens")))  # the capital
    assert state.observation(0).pending == ci.Pending(
        D.GIVE_CITY, cities=mask("Capua", "Milan", "Lisbon"), count=2
    )
    expect_illegal(state, ci.GiveCity(cid("Rome")), "C10 giving up cards")  # a second capital
    state.apply(ci.GiveCity(cid("Lisbon")))  # neutral counts as regular
    state.apply(ci.GiveCity(cid("Milan")))
    assert names(state.held[0]) == {"Rome", "Capua"}
    assert state.current_player == 1  # no capital: four regular cities of five
    state.apply(ci.GiveCity(cid("Ur")))
    state.apply(ci.GiveCity(cid("Utica")))
    state.apply(ci.GiveCity(cid("Sparta")))
    state.apply(ci.GiveCity(cid("Syracuse")))
    # Seat 2 holds one capital and one regular city: both go without a question.
    keep_order(state)
    assert state.held == [mask("Rome", "Capua"), mask("Gadiz"), 0]
    back_to_seat_0(state)


# --- Friendly exchange --------------------------------------------------------------------------------


def test_c11_friendly_exchange_accepted_swaps_then_both_take_a_city() -> None:
    state = event_position(
        held={0: ["Rome", "Lisbon"], 2: ["Athens"]},
        hands={0: [E.FRIENDLY_EXCHANGE]},
        city_top=["Capua", "Sparta"],
    )
    play(state, E.FRIENDLY_EXCHANGE, target=2, give_city=cid("Lisbon"), take_city=cid("Athens"))
    assert decision_of(state) == D.EXCHANGE and state.current_player == 2
    offer = state.observation(2).pending
    assert offer is not None and offer.offer == ci.Play(
        E.FRIENDLY_EXCHANGE, target=2, give_city=cid("Lisbon"), take_city=cid("Athens")
    )
    assert state.legal_actions() == [ci.Exchange(True), ci.Exchange(False)]
    state.apply(ci.Exchange(True))
    assert names(state.held[0]) == {"Rome", "Athens", "Capua"}
    assert names(state.held[2]) == {"Lisbon", "Sparta"}
    assert [o.kind for o in record(state).outcome] == ["accept", "take", "take", "take", "take"]
    back_to_seat_0(state)


def test_c11_friendly_exchange_declined_spends_the_card() -> None:
    state = event_position(held={0: ["Rome"], 1: ["Athens"]}, hands={0: [E.FRIENDLY_EXCHANGE]})
    play(state, E.FRIENDLY_EXCHANGE, target=1, give_city=cid("Rome"), take_city=cid("Athens"))
    state.apply(ci.Exchange(False))
    assert state.held[:2] == [mask("Rome"), mask("Athens")]
    assert record(state).play.event == E.FRIENDLY_EXCHANGE and record(state).outcome[0].kind == "decline"
    assert E.FRIENDLY_EXCHANGE not in hand(state, 0)
    back_to_seat_0(state)


# --- Unrest and Great unrest --------------------------------------------------------------------------


def test_c11_unrest_each_opponent_gives_one_city_of_the_side() -> None:
    state = event_position(
        held={1: ["Rome", "Capua", "Athens"], 2: ["Utica", "Lisbon"], 0: ["Alesia"]},
        hands={0: [E.UNREST]},
    )
    play(state, E.UNREST, side=ci.Side.WEST)
    assert decision_of(state) == D.GIVE_CITY and state.current_player == 1
    assert state.observation(1).pending == ci.Pending(D.GIVE_CITY, cities=mask("Rome", "Capua"), count=1)
    state.apply(ci.GiveCity(cid("Rome")))
    # Seat 2's only western city goes without a question; Lisbon (neutral) never does.
    assert names(state.held[0]) == {"Alesia", "Rome", "Utica"}
    assert names(state.held[2]) == {"Lisbon"}
    back_to_seat_0(state)


def test_c11_unrest_never_takes_neutral_and_needs_a_side_city() -> None:
    state = position(held={1: ["Lisbon", "Athens"], 0: ["Rome"]}, hands={0: [E.UNREST]})
    expect_illegal(state, ci.Play(E.UNREST, side=ci.Side.WEST), PLAYABILITY)
    assert [a for a in state.legal_actions() if isinstance(a, ci.Play)] == [
        ci.Play(E.UNREST, side=ci.Side.EAST)
    ]


def test_c11_great_unrest_two_cities_each() -> None:
    state = event_position(
        held={1: ["Athens", "Sparta", "Memfis"], 2: ["Giza"]},
        hands={0: [E.GREAT_UNREST]},
    )
    play(state, E.GREAT_UNREST, side=ci.Side.EAST)
    state.apply(ci.GiveCity(cid("Memfis")))
    assert state.current_player == 1
    state.apply(ci.GiveCity(cid("Sparta")))
    assert names(state.held[0]) == {"Memfis", "Sparta", "Giza"}
    assert state.held[1] == mask("Athens") and state.held[2] == 0
    back_to_seat_0(state)


# --- Loss of influence --------------------------------------------------------------------------------


def test_c11_loss_of_influence_takes_a_neutral_city_and_allows_one_more_play() -> None:
    state = position(held={1: ["Lisbon", "Rome"]}, hands={0: [E.LOSS_OF_INFLUENCE, E.CURSE]})
    expect_illegal(state, ci.Play(E.LOSS_OF_INFLUENCE, target=1, take_city=cid("Rome")), "C10 choices")
    play(state, E.LOSS_OF_INFLUENCE, target=1, take_city=cid("Lisbon"))
    assert state.held[0] == mask("Lisbon") and state.plays_left == 1
    assert decision_of(state) == D.PLAY and state.current_player == 0
    assert record(state).outcome[-1] == ci.Outcome("extra_plays", 0, -1, 1)


# --- Protection cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize("card", list(ci.PROTECTIONS), ids=[p.name for p in ci.PROTECTIONS])
def test_c11_protection_cards_are_never_played_as_events(card: ci.EventType) -> None:
    state = position(held={1: ["Rome"]}, hands={0: [card]})
    expect_illegal(state, ci.Play(card), PLAYABILITY)
    assert state.legal_actions() == [ci.Pass()]


# --- Attack -------------------------------------------------------------------------------------------


def test_c11_attack_needs_a_capital_and_takes_any_city() -> None:
    no_capital = position(held={0: ["Capua"], 1: ["Athens"]}, hands={0: [E.ATTACK]})
    expect_illegal(no_capital, ci.Play(E.ATTACK, target=1, take_city=cid("Athens")), PLAYABILITY)
    state = event_position(held={0: ["Rome"], 1: ["Athens", "Lisbon"]}, hands={0: [E.ATTACK]})
    expect_illegal(state, ci.Play(E.ATTACK, target=2, take_city=cid("Athens")), "C10 choices")
    expect_illegal(state, ci.Play(E.ATTACK, target=1), "C10 choices")
    play(state, E.ATTACK, target=1, take_city=cid("Athens"))
    assert state.held[:2] == [mask("Rome", "Athens"), mask("Lisbon")]
    back_to_seat_0(state)


# --- Victory ------------------------------------------------------------------------------------------


def test_c11_victory_loses_one_city_takes_three_events_and_two_more_plays() -> None:
    state = position(
        held={0: ["Rome", "Capua"]},
        hands={0: [E.VICTORY]},
        event_top=[E.CURSE, E.PLAGUE, E.FLOOD, E.ATTACK],
    )
    play(state, E.VICTORY)
    assert decision_of(state) == D.GIVE_CITY and state.current_player == 0
    state.apply(ci.GiveCity(cid("Capua")))
    keep_order(state)
    assert state.held[0] == mask("Rome")
    assert hand(state, 0) == {E.CURSE: 1, E.PLAGUE: 1, E.FLOOD: 1}
    assert state.plays_left == 2 and decision_of(state) == D.PLAY
    play(state, E.CURSE, target=1)
    play(state, E.PLAGUE)
    assert state.active == 1  # the two extra plays are used up: the turn is over


def test_c11_victory_with_no_city_still_takes_events() -> None:
    state = position(hands={0: [E.VICTORY]}, event_top=[E.CURSE, E.CURSE, E.CURSE])
    play(state, E.VICTORY)
    assert hand(state, 0) == {E.CURSE: 3} and state.plays_left == 2
    empty = position(hands={0: [E.VICTORY]}, event_rest=False)
    expect_illegal(empty, ci.Play(E.VICTORY), PLAYABILITY)


# --- Influence on wonders -----------------------------------------------------------------------------


def test_c11_influence_on_wonders_takes_every_wonder_held_by_others() -> None:
    state = event_position(
        held={0: ["Rome", "Giza"], 1: ["Babylon", "Rhodes", "Sparta"], 2: ["Alexandria"]},
        hands={0: [E.INFLUENCE_ON_WONDERS]},
    )
    play(state, E.INFLUENCE_ON_WONDERS)
    assert names(state.held[0]) == {"Rome", "Giza", "Babylon", "Rhodes", "Alexandria"}
    assert state.held[1:] == [mask("Sparta"), 0]
    back_to_seat_0(state)


def test_c11_influence_on_wonders_conditions() -> None:
    for held in (
        {0: ["Giza"], 1: ["Babylon"]},
        {0: ["Rome"], 1: ["Babylon"]},
        {0: ["Rome", "Giza"], 1: ["Sparta"]},
    ):
        state = position(held=held, hands={0: [E.INFLUENCE_ON_WONDERS]})
        expect_illegal(state, ci.Play(E.INFLUENCE_ON_WONDERS), PLAYABILITY)


# --- Rebellion ----------------------------------------------------------------------------------------


def test_c11_rebellion_takes_one_city_and_the_target_loses_another_to_the_deck() -> None:
    state = event_position(held={2: ["Athens", "Sparta", "Syracuse"]}, hands={0: [E.REBELLION]})
    play(state, E.REBELLION, target=2, take_city=cid("Sparta"))
    assert decision_of(state) == D.GIVE_CITY and state.current_player == 2
    assert state.observation(2).pending == ci.Pending(D.GIVE_CITY, cities=mask("Athens", "Syracuse"), count=1)
    state.apply(ci.GiveCity(cid("Syracuse")))
    keep_order(state)
    assert state.held[0] == mask("Sparta") and state.held[2] == mask("Athens")
    assert cid("Syracuse") in state.city_deck
    back_to_seat_0(state)


def test_c11_rebellion_on_a_single_city() -> None:
    state = event_position(held={1: ["Ur"]}, hands={0: [E.REBELLION]})
    play(state, E.REBELLION, target=1, take_city=cid("Ur"))
    assert state.held[0] == mask("Ur") and state.held[1] == 0
    back_to_seat_0(state)


# --- Trade --------------------------------------------------------------------------------------------


def test_c11_trade_swaps_two_cities_and_needs_a_capital() -> None:
    state = event_position(held={0: ["Rome", "Ur"], 1: ["Athens"]}, hands={0: [E.TRADE]})
    plays = {a for a in state.legal_actions() if isinstance(a, ci.Play) and a.event == E.TRADE}
    assert len(plays) == 2
    play(state, E.TRADE, target=1, give_city=cid("Ur"), take_city=cid("Athens"))
    assert state.held[:2] == [mask("Rome", "Athens"), mask("Ur")]
    back_to_seat_0(state)
    no_capital = position(held={0: ["Capua"], 1: ["Athens"]}, hands={0: [E.TRADE]})
    expect_illegal(
        no_capital, ci.Play(E.TRADE, target=1, give_city=cid("Capua"), take_city=cid("Athens")), PLAYABILITY
    )


# --- Economic crisis ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("crisis", "first", "second"),
    [
        (E.ECONOMIC_CRISIS_METALLURGY_ARMY, Emp.CELTS, Emp.ROME),
        (E.ECONOMIC_CRISIS_ENGINEERING_CULTURE, Emp.ETRUSCANS, Emp.GREECE),
        (E.ECONOMIC_CRISIS_AGRICULTURE_SEAFARING, Emp.EGYPT, Emp.CARTHAGE),
        (E.ECONOMIC_CRISIS_SLAVERY_FINANCES, Emp.PERSIA, Emp.JEWS),
    ],
    ids=["metallurgy-army", "engineering-culture", "agriculture-seafaring", "slavery-finances"],
)
def test_c11_economic_crisis_players_short_of_the_pair_lose_two_cities_and_two_events(
    crisis: ci.EventType, first: ci.Empire, second: ci.Empire
) -> None:
    a, b = empire(first), empire(second)
    state = event_position(
        held={0: [a[0], b[1]], 1: [a[2], "Lisbon", "Ur", "Petra"], 2: ["Madrid"]},
        hands={0: [crisis], 1: [E.ATTACK, E.ATTACK, E.FLOOD], 2: [E.PLAGUE]},
    )
    play(state, crisis)
    # Seat 0 holds two of the pair: spared. Seat 1 holds one: loses 2 of 4 cities, then 2 of 3 events.
    assert state.current_player == 1 and decision_of(state) == D.GIVE_CITY
    state.apply(ci.GiveCity(cid("Ur")))
    state.apply(ci.GiveCity(cid(a[2])))
    assert decision_of(state) == D.GIVE_EVENT
    assert state.legal_actions() == [ci.GiveEvent(E.ATTACK), ci.GiveEvent(E.FLOOD)]
    state.apply(ci.GiveEvent(E.FLOOD))  # then only Attacks remain: the second goes by itself
    keep_order(state)
    assert names(state.held[1]) == {"Lisbon", "Petra"} and hand(state, 1) == {E.ATTACK: 1}
    assert state.face_down[1][E.FLOOD] == 1 and state.face_down[1][E.ATTACK] == 1
    # Seat 2 loses its only city and its only event without a question.
    assert state.held[2] == 0 and state.hand_sizes[2] == 0 and sum(state.face_down[2]) == 1
    assert state.held[0] == mask(a[0], b[1])
    back_to_seat_0(state)


def test_c11_economic_crisis_unplayable_when_nobody_would_lose_anything() -> None:
    state = position(
        held={0: ["Rome", "Capua"], 1: ["Alesia", "Lyon"]}, hands={0: [E.ECONOMIC_CRISIS_METALLURGY_ARMY]}
    )
    expect_illegal(state, ci.Play(E.ECONOMIC_CRISIS_METALLURGY_ARMY), PLAYABILITY)  # seat 2 holds nothing
    with_event = position(
        held={0: ["Rome", "Capua"], 1: ["Alesia", "Lyon"]},
        hands={0: [E.ECONOMIC_CRISIS_METALLURGY_ARMY], 2: [E.CURSE]},
    )
    assert ci.Play(E.ECONOMIC_CRISIS_METALLURGY_ARMY) in with_event.legal_actions()


# --- Education ----------------------------------------------------------------------------------------


def test_c11_education_exchange_returns_events_shuffles_and_takes_as_many() -> None:
    state = event_position(
        hands={0: [E.EDUCATION, E.ATTACK, E.ATTACK, E.FLOOD]},
        event_top=[E.PLAGUE, E.TRADE],
        event_rest=False,
    )
    state.apply(ci.Play(E.EDUCATION, education=ci.EducationMode.EXCHANGE, returns=(E.FLOOD, E.ATTACK)))
    assert state.is_chance_node() and state.chance == ci.Deck.EVENT
    assert sorted(state.event_deck) == sorted([E.PLAGUE, E.TRADE, E.FLOOD, E.ATTACK])
    state.apply(ci.Shuffle(ci.Deck.EVENT, (E.FLOOD, E.TRADE, E.ATTACK, E.PLAGUE)))
    assert hand(state, 0) == {E.ATTACK: 1, E.FLOOD: 1, E.TRADE: 1, E.CURSE: 1}
    assert record(state).returned == 2 and record(state).play.returns == ()
    back_to_seat_0(state)


def test_c11_education_exchange_choices_are_sub_multisets_of_the_hand() -> None:
    state = position(hands={0: [E.EDUCATION, E.EDUCATION, E.ATTACK]})
    exchanges = {a.returns for a in state.legal_actions() if isinstance(a, ci.Play) and a.returns}
    assert exchanges == {(E.ATTACK,), (E.EDUCATION,), (E.ATTACK, E.EDUCATION)}
    expect_illegal(
        state,
        ci.Play(E.EDUCATION, education=ci.EducationMode.EXCHANGE, returns=(E.EDUCATION, E.EDUCATION)),
        "C10 choices",
    )
    expect_illegal(state, ci.Play(E.EDUCATION, education=ci.EducationMode.EXCHANGE), "C10 choices")
    expect_illegal(state, ci.Play(E.EDUCATION), "C10 choices")


def test_c11_education_discard_five_events_face_down_chosen_by_the_target() -> None:
    victim = [E.ATTACK, E.ATTACK, E.TRADE, E.FLOOD, E.PLAGUE, E.CURSE, E.VICTORY]
    state = event_position(hands={0: [E.EDUCATION], 2: victim})
    play(state, E.EDUCATION, education=ci.EducationMode.DISCARD, target=2)
    for ev in (E.ATTACK, E.TRADE, E.FLOOD, E.PLAGUE):
        assert state.current_player == 2 and decision_of(state) == D.GIVE_EVENT
        state.apply(ci.GiveEvent(ev))
    state.apply(ci.GiveEvent(E.VICTORY))
    assert hand(state, 2) == {E.ATTACK: 1, E.CURSE: 1}
    assert sum(state.face_down[2]) == 5
    assert state.observation(1).face_down == (0, 0, 5)
    back_to_seat_0(state)


def test_c11_education_discard_takes_all_when_fewer_than_five() -> None:
    state = event_position(hands={0: [E.EDUCATION], 1: [E.ATTACK, E.PLAGUE]})
    play(state, E.EDUCATION, education=ci.EducationMode.DISCARD, target=1)
    assert state.hand_sizes[1] == 0 and sum(state.face_down[1]) == 2
    expect = position(hands={0: [E.EDUCATION]})
    expect_illegal(expect, ci.Play(E.EDUCATION, education=ci.EducationMode.DISCARD, target=1), PLAYABILITY)


# --- Barbarians ---------------------------------------------------------------------------------------


def test_c11_barbarians_three_cities_each_or_all_and_no_city_next_turn() -> None:
    state = event_position(
        held={
            0: ["Rome", "Capua", "Milan", "Lisbon"],
            1: ["Athens", "Sparta"],
            2: ["Utica", "Gadiz", "Karalis"],
        },
        hands={0: [E.BARBARIANS]},
    )
    play(state, E.BARBARIANS)
    assert state.current_player == 0 and decision_of(state) == D.GIVE_CITY
    for name in ("Capua", "Milan", "Lisbon"):
        state.apply(ci.GiveCity(cid(name)))
    keep_order(state)
    assert state.held == [mask("Rome"), 0, 0]  # seat 2 had exactly three: no question
    assert state.no_city == 0b010
    assert ci.Outcome("no_city", 1) in record(state).outcome
    back_to_seat_0(state)
    state.apply(ci.Pass())
    assert state.active == 1 and state.held[1] == 0  # seat 1 takes no city this turn
    assert state.no_city == 0 and state.no_city_now


def test_c11_barbarians_always_playable() -> None:
    state = position(hands={0: [E.BARBARIANS]})
    assert ci.Play(E.BARBARIANS) in state.legal_actions()
    play(state, E.BARBARIANS)
    assert state.no_city == 0 or state.active != 0
    assert record(state).outcome == tuple(ci.Outcome("no_city", s) for s in (0, 1, 2))


# --- Silence before the storm -------------------------------------------------------------------------


def test_c11_silence_target_plays_nothing_on_its_next_two_turns() -> None:
    state = event_position(
        players=2, hands={0: [E.SILENCE_BEFORE_THE_STORM], 1: [E.BARBARIANS, E.BARBARIANS]}
    )
    play(state, E.SILENCE_BEFORE_THE_STORM, target=1)
    assert state.silenced == [0, 2]
    back_to_seat_0(state)
    state.apply(ci.Pass())
    assert state.active == 0 and state.turn == 3  # seat 1's turn passed without a play
    assert state.silenced == [0, 1]
    state.apply(ci.Pass())
    assert state.active == 0 and state.turn == 5 and state.silenced == [0, 0]
    state.apply(ci.Pass())
    assert state.active == 1 and decision_of(state) == D.PLAY  # free again


def test_c11_silence_can_always_be_played() -> None:
    state = position(players=4, hands={0: [E.SILENCE_BEFORE_THE_STORM]}, city_rest=False, event_rest=False)
    plays = [a for a in state.legal_actions() if isinstance(a, ci.Play)]
    assert {a.target for a in plays} == {1, 2, 3}
    expect_illegal(state, ci.Play(E.SILENCE_BEFORE_THE_STORM, target=0), "C10 choices")


# --- Uncovering excavations ---------------------------------------------------------------------------


def test_c11_uncovering_excavations_takes_the_bottom_city_and_event() -> None:
    state = event_position(
        hands={0: [E.UNCOVERING_EXCAVATIONS]},
        city_top=["Rome", "Capua", "Ur"],
        city_rest=False,
        event_top=[E.ATTACK, E.FLOOD],
        event_rest=False,
    )
    play(state, E.UNCOVERING_EXCAVATIONS)
    assert state.held[0] == mask("Ur") and hand(state, 0) == {E.FLOOD: 1, E.CURSE: 1}
    assert [ci.CITIES[c].name for c in state.city_deck[::-1]] == ["Rome", "Capua"]
    assert record(state).outcome == (ci.Outcome("take", 0, -2, cid("Ur")), ci.Outcome("events", 0, -2, 1))


# --- Curse --------------------------------------------------------------------------------------------


def test_c11_curse_one_card_of_the_players_choice_and_one_play_in_all() -> None:
    state = event_position(
        players=2,
        hands={0: [E.CURSE], 1: [E.VICTORY, E.CURSE]},
        held={1: ["Rome"]},
        city_top=["Capua"],
        event_top=[E.PLAGUE],
    )
    play(state, E.CURSE, target=1)
    assert state.cursed == 0b10
    back_to_seat_0(state)
    state.apply(ci.Pass())
    assert state.active == 1 and decision_of(state) == D.DRAW
    assert state.legal_actions() == [ci.Draw(ci.Deck.CITY), ci.Draw(ci.Deck.EVENT)]
    state.apply(ci.Draw(ci.Deck.EVENT))
    assert state.held[1] == mask("Rome") and hand(state, 1) == {E.VICTORY: 1, E.CURSE: 1, E.PLAGUE: 1}
    play(state, E.VICTORY)  # Rome, the only city, goes without a question
    assert state.held[1] == 0
    assert state.active == 0  # Victory's two extra plays do not count on a cursed turn


def test_c11_a_second_curse_adds_nothing() -> None:
    state = position(players=2, hands={0: [E.CURSE, E.CURSE], 1: [E.BARBARIANS, E.BARBARIANS]}, plays=2)
    play(state, E.CURSE, target=1)
    assert state.cursed == 0b10
    play(state, E.CURSE, target=1)
    assert [r.play.event for r in state.log] == [E.CURSE, E.CURSE]
    assert state.active == 1 and state.curse_now and state.cursed == 0
    state.apply(ci.Draw(ci.Deck.CITY))
    play(state, E.BARBARIANS)
    assert state.turn >= 3 and hand(state, 1)[E.BARBARIANS] == 1  # one play in all: the turn is over
    while state.active != 1:
        state.apply(ci.Pass())
    assert state.turn == 4 and not state.curse_now and decision_of(state) == D.PLAY  # no second cursed turn


def test_c11_curse_with_barbarians_restriction_leaves_only_the_event() -> None:
    state = position(players=2, hands={0: [E.CURSE]}, city_top=["Capua"], event_top=[E.PLAGUE])
    state.no_city = 0b10
    play(state, E.CURSE, target=1)
    # Seat 1 may not take a city, so it takes the event without being asked; nothing is playable.
    assert state.held[1] == 0 and hand(state, 1) == {E.PLAGUE: 1}
    assert state.turn == 3 and state.active == 0 and state.held[0] == mask("Capua")  # Capua waited for seat 0


# --- Espionage ----------------------------------------------------------------------------------------


def test_c11_espionage_one_event_per_capital_of_the_target_or_one() -> None:
    state = event_position(
        held={1: ["Rome", "Athens", "Carthage"]},
        hands={0: [E.ESPIONAGE, E.ESPIONAGE]},
        event_top=[E.ATTACK, E.FLOOD, E.TRADE, E.PLAGUE],
    )
    play(state, E.ESPIONAGE, target=1)
    assert hand(state, 0) == {E.ATTACK: 1, E.FLOOD: 1, E.TRADE: 1, E.ESPIONAGE: 1, E.CURSE: 1}
    assert state.held[1] == mask("Rome", "Athens", "Carthage")  # the target gives nothing
    play(state, E.ESPIONAGE, target=2)
    assert hand(state, 0)[E.PLAGUE] == 1
    assert record(state).outcome == (ci.Outcome("events", 0, -1, 1),)


def test_c11_espionage_needs_an_event_in_the_deck() -> None:
    state = position(held={1: ["Rome"]}, hands={0: [E.ESPIONAGE]}, event_rest=False)
    expect_illegal(state, ci.Play(E.ESPIONAGE, target=1), PLAYABILITY)


# --- Flood --------------------------------------------------------------------------------------------


def test_c11_flood_everyone_loses_non_capitals_then_two_cities_per_commander_in_hand() -> None:
    state = event_position(
        held={0: ["Rome", "Capua", "Lisbon"], 1: ["Athens"], 2: ["Sparta", "Utica"]},
        hands={0: [E.FLOOD], 1: [E.COMMANDER_EGYPT, E.COMMANDER_PERSIA], 2: [E.COMMANDER_ROME]},
        city_top=["Memfis", "Giza", "Abydos", "Alexandria"],
        city_rest=False,
    )
    play(state, E.FLOOD)
    # The lost cities went into the deck and the shuffle kept the order (lost cities on top).
    assert state.held[0] == mask("Rome")
    assert names(state.held[1]) == {"Athens", "Sparta", "Utica", "Lisbon", "Capua"}
    assert names(state.held[2]) == {"Memfis", "Giza"}
    assert hand(state, 1) == {E.COMMANDER_EGYPT: 1, E.COMMANDER_PERSIA: 1}
    back_to_seat_0(state)


def test_c11_flood_needs_a_non_capital_on_the_table() -> None:
    state = position(held={1: ["Rome"], 2: ["Athens"]}, hands={0: [E.FLOOD]})
    expect_illegal(state, ci.Play(E.FLOOD), PLAYABILITY)
