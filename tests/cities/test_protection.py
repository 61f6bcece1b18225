"""C12 protection: who is affected, who is asked and in which order, what each card covers."""

from __future__ import annotations

from sdk.games import cities as ci

from .builders import (
    D,
    E,
    back_to_seat_0,
    cid,
    decision_of,
    event_position,
    expect_illegal,
    hand,
    keep_order,
    mask,
    names,
    play,
    position,
)

RULE = "C12 protection"


def test_c12_only_affected_seats_holding_a_covering_card_are_asked_in_seat_order() -> None:
    state = event_position(
        players=4,
        held={0: ["Capua"], 1: ["Milan"], 2: ["Athens"], 3: ["Rome"]},
        hands={
            0: [E.COMMANDER_ROME, E.GREAT_PROTECTION],
            1: [E.PLAGUE],
            2: [E.BASIC_PROTECTION],
            3: [E.PROTECTION],
        },
    )
    state.apply(ci.Play(E.COMMANDER_ROME))
    # Seat 0 (the player) first; seat 1 holds no protection; seat 2 is not affected (no Roman city).
    asked = []
    while decision_of(state) == D.REACT:
        asked.append(state.current_player)
        state.apply(ci.React(None))
    keep_order(state)
    assert asked == [0, 3]
    assert state.held == [0, 0, mask("Athens"), 0]


def test_c12_the_order_starts_at_the_player_of_the_event() -> None:
    state = position(
        players=4,
        active=2,
        held={s: [name] for s, name in enumerate(["Capua", "Milan", "Rome", "Tarraco"])},
        hands={2: [E.COMMANDER_ROME], 0: [E.PROTECTION], 1: [E.GREAT_PROTECTION], 3: [E.BASIC_PROTECTION]},
    )
    state.apply(ci.Play(E.COMMANDER_ROME))
    asked = []
    while decision_of(state) == D.REACT:
        asked.append(state.current_player)
        state.apply(ci.React(None))
    assert asked == [3, 0, 1]


def test_c12_a_revealed_card_leaves_the_game_and_its_seat_is_skipped() -> None:
    state = event_position(
        held={0: ["Capua"], 1: ["Milan", "Athens"], 2: ["Brundisium"]},
        hands={0: [E.COMMANDER_ROME], 1: [E.BASIC_PROTECTION, E.PROTECTION]},
    )
    state.apply(ci.Play(E.COMMANDER_ROME))
    assert state.current_player == 1
    assert state.legal_actions() == [
        ci.React(None),
        ci.React(E.BASIC_PROTECTION),
        ci.React(E.PROTECTION),
    ]
    assert state.observation(1).pending == ci.Pending(D.REACT, protections=(E.BASIC_PROTECTION, E.PROTECTION))
    state.apply(ci.React(E.BASIC_PROTECTION))
    keep_order(state)
    assert state.held == [0, mask("Milan", "Athens"), 0]
    assert hand(state, 1) == {E.PROTECTION: 1}
    assert state.log[-1].revealed == ((1, E.BASIC_PROTECTION),)
    assert state.log[-1].outcome[0] == ci.Outcome("reveal", 1, -1, E.BASIC_PROTECTION)
    back_to_seat_0(state)


def test_c12_what_each_card_covers() -> None:
    # Basic protection does not cover Plague; Protection does.
    state = event_position(
        held={1: ["Rome"], 2: ["Athens"]}, hands={0: [E.PLAGUE], 1: [E.BASIC_PROTECTION], 2: [E.PROTECTION]}
    )
    state.apply(ci.Play(E.PLAGUE))
    assert state.current_player == 2 and decision_of(state) == D.REACT
    state.apply(ci.React(E.PROTECTION))
    keep_order(state)
    assert state.held == [0, 0, mask("Athens")]
    # Only Great protection covers Rebellion.
    rebellion = event_position(
        held={1: ["Rome", "Capua"]}, hands={0: [E.REBELLION], 1: [E.PROTECTION, E.BASIC_PROTECTION]}
    )
    play(rebellion, E.REBELLION, target=1, take_city=cid("Rome"))  # no question: Capua goes too
    assert rebellion.held[1] == 0 and hand(rebellion, 1) == {E.PROTECTION: 1, E.BASIC_PROTECTION: 1}
    great = event_position(held={1: ["Rome", "Capua"]}, hands={0: [E.REBELLION], 1: [E.GREAT_PROTECTION]})
    great.apply(ci.Play(E.REBELLION, target=1, take_city=cid("Rome")))
    assert decision_of(great) == D.REACT
    expect_illegal(great, ci.React(E.PROTECTION), RULE)
    great.apply(ci.React(E.GREAT_PROTECTION))
    assert great.held[:2] == [0, mask("Rome", "Capua")]
    back_to_seat_0(great)


def test_c12_receiving_is_not_being_affected() -> None:
    state = event_position(
        held={0: ["Rome"], 1: ["Athens"]},
        hands={0: [E.SMALL_FESTIVAL, E.ESPIONAGE], 1: [E.GREAT_PROTECTION]},
    )
    play(state, E.SMALL_FESTIVAL)
    play(state, E.ESPIONAGE, target=1)  # the target gives nothing: no question
    assert hand(state, 1)[E.GREAT_PROTECTION] == 1
    assert state.log[-1].revealed == () and state.log[-2].revealed == ()


def test_c12_what_the_player_gives_up_by_playing_is_not_covered() -> None:
    victory = position(held={0: ["Rome", "Capua"]}, hands={0: [E.VICTORY, E.GREAT_PROTECTION]})
    victory.apply(ci.Play(E.VICTORY))
    assert decision_of(victory) == D.GIVE_CITY  # not asked to protect its own city
    trade = event_position(
        held={0: ["Rome", "Ur"], 1: ["Athens"]}, hands={0: [E.TRADE, E.GREAT_PROTECTION], 1: [E.PROTECTION]}
    )
    trade.apply(ci.Play(E.TRADE, target=1, give_city=cid("Ur"), take_city=cid("Athens")))
    assert trade.current_player == 1 and decision_of(trade) == D.REACT
    trade.apply(ci.React(E.PROTECTION))
    assert trade.held[:2] == [mask("Rome", "Ur"), mask("Athens")]
    back_to_seat_0(trade)


def test_c12_the_player_may_protect_itself_from_its_own_event() -> None:
    state = event_position(
        held={0: ["Rome", "Capua", "Milan"], 1: ["Athens"]}, hands={0: [E.BARBARIANS, E.BASIC_PROTECTION]}
    )
    state.apply(ci.Play(E.BARBARIANS))
    assert state.current_player == 0 and decision_of(state) == D.REACT
    state.apply(ci.React(E.BASIC_PROTECTION))
    keep_order(state)
    assert names(state.held[0]) == {"Rome", "Capua", "Milan"} and state.held[1] == 0
    assert state.no_city == 0b110  # seats 1 and 2 held fewer than three; seat 0 is spared


def test_c12_friendly_exchange_asks_for_acceptance_not_protection() -> None:
    state = event_position(
        held={0: ["Rome"], 1: ["Athens"]}, hands={0: [E.FRIENDLY_EXCHANGE], 1: [E.GREAT_PROTECTION]}
    )
    state.apply(ci.Play(E.FRIENDLY_EXCHANGE, target=1, give_city=cid("Rome"), take_city=cid("Athens")))
    assert decision_of(state) == D.EXCHANGE and state.legal_actions() == [
        ci.Exchange(True),
        ci.Exchange(False),
    ]


def test_c12_silenced_and_cursed_players_may_react() -> None:
    state = event_position(
        held={1: ["Rome"], 2: ["Athens"]}, hands={0: [E.ATTACK, E.CURSE], 1: [E.BASIC_PROTECTION]}
    )
    state.held[0] = mask("Carthage")
    state.silenced[1] = 2
    state.cursed = 0b100
    state.apply(ci.Play(E.ATTACK, target=1, take_city=cid("Rome")))
    assert decision_of(state) == D.REACT and state.current_player == 1
    state.apply(ci.React(E.BASIC_PROTECTION))
    assert state.held[1] == mask("Rome")


def test_c12_silence_and_curse_are_covered_only_by_great_protection() -> None:
    state = event_position(
        hands={0: [E.SILENCE_BEFORE_THE_STORM], 1: [E.PROTECTION], 2: [E.GREAT_PROTECTION]}
    )
    play(state, E.SILENCE_BEFORE_THE_STORM, target=1)
    assert state.silenced == [0, 2, 0]
    state.apply(ci.Play(E.CURSE, target=2))
    assert decision_of(state) == D.REACT and state.current_player == 2
    state.apply(ci.React(E.GREAT_PROTECTION))
    assert state.cursed == 0 and state.log[-1].outcome == (ci.Outcome("reveal", 2, -1, E.GREAT_PROTECTION),)


def test_c12_loss_of_influence_allows_the_extra_play_even_if_the_target_protected() -> None:
    state = position(held={1: ["Lisbon"]}, hands={0: [E.LOSS_OF_INFLUENCE, E.CURSE], 1: [E.GREAT_PROTECTION]})
    state.apply(ci.Play(E.LOSS_OF_INFLUENCE, target=1, take_city=cid("Lisbon")))
    state.apply(ci.React(E.GREAT_PROTECTION))
    assert state.held[1] == mask("Lisbon") and state.plays_left == 1 and state.current_player == 0


def test_c12_a_revealer_is_skipped_by_flood_entirely() -> None:
    state = event_position(
        held={0: ["Rome", "Capua"], 1: ["Athens", "Sparta"]},
        hands={0: [E.FLOOD, E.COMMANDER_EGYPT], 1: [E.GREAT_PROTECTION, E.COMMANDER_PERSIA]},
        city_top=["Utica", "Gadiz", "Karalis"],
    )
    state.apply(ci.Play(E.FLOOD))
    state.apply(ci.React(E.GREAT_PROTECTION))
    keep_order(state)
    assert names(state.held[1]) == {"Athens", "Sparta"}  # kept its cities, took none
    assert names(state.held[0]) == {"Rome", "Capua", "Utica"}  # Capua came back from the deck's top


def test_c12_react_refused_out_of_turn_or_without_the_card() -> None:
    state = event_position(held={1: ["Rome"]}, hands={0: [E.COMMANDER_ROME], 1: [E.BASIC_PROTECTION]})
    expect_illegal(state, ci.React(None), RULE)
    state.apply(ci.Play(E.COMMANDER_ROME))
    expect_illegal(state, ci.React(E.GREAT_PROTECTION), RULE)
    expect_illegal(state, ci.React(E.COMMANDER_ROME), RULE)
    expect_illegal(state, ci.Pass(), "C4 turn")
