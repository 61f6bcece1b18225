"""Rulings C5 (empires), C6 (wonders), C8 (targets and places), C9 (playability), C10 (who chooses)."""

from __future__ import annotations

import random

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


# --- C5 empires ---------------------------------------------------------------------------------------


def test_c5_a_completed_empire_leaves_play_for_good_and_scores_one() -> None:
    celts = empire(Emp.CELTS)
    state = position(
        players=2, held={1: [*celts[:5], "Rome"]}, hands={0: [E.BARBARIANS]}, city_top=[celts[5]]
    )
    state.apply(ci.Pass())
    assert state.held[1] == mask("Rome")
    assert state.done[1] == ci.EMPIRE_MASKS[Emp.CELTS] and state.scores() == [0, 1]
    assert state.observation(0).completed(1) == [Emp.CELTS]
    # Nothing can take or return those cities any more: a Celtic Commander or Anger has no target.
    later = position(players=2, hands={0: [E.COMMANDER_CELTS, E.ANGER_CELTS]})
    later.done[1] = ci.EMPIRE_MASKS[Emp.CELTS]
    later.city_deck = [c for c in later.city_deck if not ci.EMPIRE_MASKS[Emp.CELTS] >> c & 1]
    assert later.legal_actions() == [ci.Pass()]
    expect_illegal(later, ci.Play(E.COMMANDER_CELTS), PLAYABILITY)


def test_c5_completion_inside_a_swap_counts_only_after_both_cities_moved() -> None:
    rome = empire(Emp.ROME)
    # Seat 0 gives a Roman city away and takes a Roman city: still five of six, not complete.
    state = event_position(held={0: rome[:5], 1: ["Athens"]}, hands={0: [E.TRADE]})
    play(state, E.TRADE, target=1, give_city=cid(rome[4]), take_city=cid("Athens"))
    assert state.done[0] == 0 and names(state.held[0]) == {*rome[:4], "Athens"}


# --- C6 wonders ---------------------------------------------------------------------------------------


def test_c6_first_to_all_seven_wonders_held_or_completed_scores_five_for_good() -> None:
    state = event_position(
        held={0: ["Rome", "Giza", "Alexandria", "Babylon"], 1: ["Halicarnassus"]},
        hands={0: [E.INFLUENCE_ON_WONDERS]},
    )
    state.done[0] = ci.EMPIRE_MASKS[Emp.GREECE]  # Olympia, Ephesus and Rhodes in a completed empire
    play(state, E.INFLUENCE_ON_WONDERS)
    assert state.wonders == 0 and state.scores()[0] == 1 + 5
    assert state.log[-1].outcome[-1] == ci.Outcome("wonders", 0)
    # Losing wonders later does not take the bonus away, nor give it to someone else.
    state.held[0] &= ~ci.WONDER_MASK
    state.held[1] |= ci.WONDER_MASK & ~ci.EMPIRE_MASKS[Emp.GREECE]
    assert state.scores() == [6, 0, 0]


def test_c6_nobody_scores_while_the_wonders_are_split() -> None:
    state = event_position(held={0: ["Rome", "Giza"], 1: ["Babylon"]}, hands={0: [E.ATTACK]})
    play(state, E.ATTACK, target=1, take_city=cid("Babylon"))
    assert state.wonders == -1 and state.scores() == [0, 0, 0]


# --- C8 targets and places ----------------------------------------------------------------------------


def test_c8_lost_cities_are_shuffled_once_after_all_losses_and_before_the_draws() -> None:
    state = event_position(
        held={0: ["Capua"], 1: ["Athens", "Milan"], 2: ["Ur"]},
        hands={0: [E.FLOOD], 1: [E.COMMANDER_ROME]},
        city_top=["Rome"],
        city_rest=False,
    )
    state.apply(ci.Play(E.FLOOD))
    assert state.is_chance_node() and state.chance == ci.Deck.CITY
    assert state.held == [0, mask("Athens"), 0]  # all the losses first
    assert sorted(state.city_deck) == sorted(cid(n) for n in ("Rome", "Capua", "Milan", "Ur"))
    shuffle = ci.Shuffle(ci.Deck.CITY, (cid("Ur"), cid("Rome"), cid("Milan"), cid("Capua")))
    state.apply(shuffle)
    assert names(state.held[1]) == {"Athens", "Ur", "Rome"}  # the draws came from the shuffled deck
    back_to_seat_0(state)


def test_c8_one_city_lost_into_an_empty_deck_needs_no_shuffle() -> None:
    state = event_position(held={1: ["Rome", "Capua"]}, hands={0: [E.REBELLION]}, city_rest=False)
    play(state, E.REBELLION, target=1, take_city=cid("Rome"))
    assert state.city_deck == [cid("Capua")] and not state.is_chance_node()


def test_c8_played_events_lie_face_up_lost_ones_face_down() -> None:
    state = event_position(
        held={0: ["Susa", "Sardes"], 1: ["Ur"]},
        hands={0: [E.ECONOMIC_CRISIS_SLAVERY_FINANCES], 1: [E.ATTACK, E.TRADE, E.FLOOD]},
    )
    play(state, E.ECONOMIC_CRISIS_SLAVERY_FINANCES)
    state.apply(ci.GiveEvent(E.TRADE))
    state.apply(ci.GiveEvent(E.FLOOD))
    keep_order(state)
    seen = state.observation(2)
    assert [r.play.event for r in seen.log] == [E.ECONOMIC_CRISIS_SLAVERY_FINANCES]
    assert seen.face_down == (0, 2, 0)
    assert "trade" not in str(seen.to_json()) and "flood" not in str(seen.to_json())
    own = state.observation(1)
    assert own.own_face_down[E.TRADE] == 1 and own.own_face_down[E.FLOOD] == 1


def test_c8_short_decks_and_losing_more_than_held() -> None:
    state = event_position(
        held={0: ["Rome"], 1: ["Capua"]}, hands={0: [E.BIG_FESTIVAL]}, city_top=["Ur"], city_rest=False
    )
    play(state, E.BIG_FESTIVAL)
    assert state.held[0] == mask("Rome", "Ur") and not state.city_deck
    plague = event_position(held={1: ["Capua"]}, hands={0: [E.PLAGUE]})
    play(plague, E.PLAGUE)
    assert plague.held[1] == 0


def test_c8_neutral_cities_are_regular_except_for_unrest() -> None:
    state = event_position(held={1: ["Rome", "Lisbon", "Petra"]}, hands={0: [E.PLAGUE]})
    play(state, E.PLAGUE)
    assert state.held[1] == 0  # one capital and two regular cities: the two neutral ones
    unrest = position(held={1: ["Lisbon"]}, hands={0: [E.UNREST, E.GREAT_UNREST]})
    assert unrest.legal_actions() == [ci.Pass()]


def test_c8_the_top_of_the_deck_is_the_first_card_of_a_shuffle() -> None:
    state = ci.new_game(2)
    state.apply(ci.Shuffle(ci.Deck.CITY, tuple(range(53, -1, -1))))
    events = list(ci.EVENT_CARDS)
    events.remove(E.BARBARIANS)
    state.apply(ci.Shuffle(ci.Deck.EVENT, (E.BARBARIANS, *events)))
    assert state.held[0] == mask("Ur") and hand(state, 0) == {E.BARBARIANS: 1}
    assert state.city_deck[-1] == cid("Petra") and state.event_deck[-1] == E.COMMANDER_ROME


# --- C9 playability -----------------------------------------------------------------------------------


def test_c9_barbarians_silence_and_curse_can_always_be_played() -> None:
    state = position(
        hands={0: [E.BARBARIANS, E.SILENCE_BEFORE_THE_STORM, E.CURSE]}, city_rest=False, event_rest=False
    )
    plays = {a for a in state.legal_actions() if isinstance(a, ci.Play)}
    assert plays == {
        ci.Play(E.BARBARIANS),
        *(ci.Play(E.SILENCE_BEFORE_THE_STORM, target=t) for t in (1, 2)),
        *(ci.Play(E.CURSE, target=t) for t in (1, 2)),
    }


def test_c9_an_event_that_would_change_nothing_cannot_be_played() -> None:
    state = position(
        hands={0: [E.PLAGUE, E.FLOOD, E.UNCOVERING_EXCAVATIONS, E.VICTORY, E.ESPIONAGE, E.GAMES_ARMY]},
        city_rest=False,
        event_rest=False,
    )
    assert state.legal_actions() == [ci.Pass()]
    for event in (E.PLAGUE, E.FLOOD, E.UNCOVERING_EXCAVATIONS, E.VICTORY, E.GAMES_ARMY):
        expect_illegal(state, ci.Play(event), PLAYABILITY)
    capitals_only = position(held={1: ["Rome", "Athens"]}, hands={0: [E.FLOOD]})
    expect_illegal(capitals_only, ci.Play(E.FLOOD), PLAYABILITY)


def test_c9_victory_needs_a_held_city_or_an_event_left() -> None:
    city_only = position(held={0: ["Ur"]}, hands={0: [E.VICTORY]}, event_rest=False)
    assert ci.Play(E.VICTORY) in city_only.legal_actions()


def test_c9_judged_on_public_facts_and_own_hand_ignoring_protection() -> None:
    # Seat 1's Great protection would cancel this Attack, but that is not public: it is playable.
    state = position(held={0: ["Rome"], 1: ["Athens"]}, hands={0: [E.ATTACK], 1: [E.GREAT_PROTECTION]})
    assert ci.Play(E.ATTACK, target=1, take_city=cid("Athens")) in state.legal_actions()
    # An Economic crisis is playable because seat 2 holds events: their number is public.
    crisis = position(
        held={0: ["Alesia", "Rome"], 1: ["Lyon", "Capua"]},
        hands={0: [E.ECONOMIC_CRISIS_METALLURGY_ARMY], 2: [E.ATTACK]},
    )
    assert ci.Play(E.ECONOMIC_CRISIS_METALLURGY_ARMY) in crisis.legal_actions()
    crisis.hands[2] = [0] * len(E)
    crisis.hands[2][E.GREAT_PROTECTION] = 1
    assert ci.Play(E.ECONOMIC_CRISIS_METALLURGY_ARMY) in crisis.legal_actions()


def test_c9_playability_agrees_between_the_state_and_a_determinized_copy() -> None:
    state = position(
        held={0: ["Rome", "Giza"], 1: ["Babylon"]},
        hands={0: [E.INFLUENCE_ON_WONDERS, E.CHARISMA, E.EDUCATION], 2: [E.UNIFICATION]},
    )
    rng = random.Random(3)
    for _ in range(20):
        copy = ci.determinize(state.observation(0), rng)
        assert copy.legal_actions() == state.legal_actions()


# --- C10 who chooses ----------------------------------------------------------------------------------


def test_c10_the_player_names_every_choice_in_the_play() -> None:
    state = position(held={0: ["Rome"], 1: ["Athens", "Lisbon"]}, hands={0: [E.ATTACK, E.TRADE, E.UNREST]})
    expect_illegal(state, ci.Play(E.ATTACK, target=1), "C10 choices")
    expect_illegal(
        state, ci.Play(E.ATTACK, target=1, take_city=cid("Athens"), side=ci.Side.EAST), "C10 choices"
    )
    expect_illegal(state, ci.Play(E.TRADE, target=1, take_city=cid("Athens")), "C10 choices")
    expect_illegal(state, ci.Play(E.UNREST), "C10 choices")
    expect_illegal(state, ci.Play(E.ATTACK, target=0, take_city=cid("Rome")), "C10 choices")
    expect_illegal(state, ci.Play(E.ATTACK, target=1, take_city=99), "C10 choices")


def test_c10_givers_choose_their_own_cards_one_at_a_time() -> None:
    state = event_position(held={1: ["Rome", "Capua", "Milan", "Tarraco"]}, hands={0: [E.BARBARIANS]})
    state.apply(ci.Play(E.BARBARIANS))
    seen = []
    while decision_of(state) == D.GIVE_CITY:
        pending = state.observation(state.current_player).pending
        assert pending is not None
        seen.append(pending.count)
        state.apply(ci.GiveCity(ci.cities_of(pending.cities)[0]))
    assert seen == [3, 2, 1]
    keep_order(state)
    assert state.held[1] == mask("Tarraco")


def test_c10_forced_choices_are_applied_without_asking() -> None:
    state = event_position(
        held={0: ["Rome"], 1: ["Capua", "Milan"], 2: ["Sparta", "Gadiz", "Ur"]}, hands={0: [E.BARBARIANS]}
    )
    play(state, E.BARBARIANS)  # seat 0 and 1 lose all (fewer than 3), seat 2 exactly 3
    assert state.held == [0, 0, 0]
    back_to_seat_0(state)
    assert hand(state, 0) == {E.CURSE: 1}
