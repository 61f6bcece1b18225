"""C4 the turn and C7 the end of the game: rounds, limits, scores and ranks."""

from __future__ import annotations

import pytest

from sdk.games import cities as ci
from sdk.games.cities.phases import TURN

from .builders import D, E, cid, decision_of, empire, expect_illegal, hand, mask, position, stacked_game

Emp = ci.Empire


def test_c4_seat_0_starts_taking_the_top_city_then_the_top_event() -> None:
    state = stacked_game(3, city_top=["Ur", "Rome"], event_top=[E.BARBARIANS, E.CURSE])
    assert state.round == 1 and state.turn == 1 and state.active == 0
    assert state.held[0] == mask("Ur") and hand(state, 0) == {E.BARBARIANS: 1}
    assert decision_of(state) == D.PLAY and state.current_player == 0
    assert state.legal_actions() == [ci.Pass(), ci.Play(E.BARBARIANS)]
    state.apply(ci.Pass())
    assert state.active == 1 and state.held[1] == mask("Rome") and hand(state, 1) == {E.CURSE: 1}


def test_c4_one_event_per_turn_and_playing_is_never_compulsory() -> None:
    state = position(hands={0: [E.BARBARIANS, E.BARBARIANS]}, city_rest=False, event_rest=False)
    assert ci.Pass() in state.legal_actions()
    state.apply(ci.Play(E.BARBARIANS))
    # Seats 1 and 2 have nothing to play; seat 0 plays again only on its next turn.
    assert (state.turn, state.active) == (4, 0) and hand(state, 0) == {E.BARBARIANS: 1}
    assert len(state.log) == 1


def test_c4_a_turn_with_nothing_playable_passes_without_a_question() -> None:
    state = stacked_game(2, event_top=[E.PROTECTION, E.CURSE])
    # Seat 0 took a Protection card (never playable): its turn ended by itself.
    assert state.active == 1 and state.turn == 2 and hand(state, 0) == {E.PROTECTION: 1}


def test_c4_empty_decks_give_nothing() -> None:
    state = position(players=2, hands={0: [E.BARBARIANS]}, city_rest=False, event_rest=False)
    state.apply(ci.Pass())
    assert state.held[1] == 0 and state.hand_sizes[1] == 0


def test_c4_events_are_secret_their_number_public_cities_public() -> None:
    state = position(held={0: ["Rome"], 1: ["Athens"]}, hands={0: [E.ATTACK, E.FLOOD], 1: [E.CURSE]})
    seen = state.observation(1)
    assert seen.hand_sizes == (2, 1, 0)
    assert seen.hand[E.CURSE] == 1 and sum(seen.hand) == 1
    assert seen.held == (mask("Rome"), mask("Athens"), 0)
    assert "attack" not in str(seen.to_json()) and "flood" not in str(seen.to_json())


def test_c4_play_refused_out_of_turn() -> None:
    state = position(hands={0: [E.BARBARIANS]})
    state.apply(ci.Play(E.BARBARIANS))
    expect_illegal(state, ci.Draw(ci.Deck.CITY), "C11 Curse")
    expect_illegal(state, ci.GiveCity(0), "C10 giving up cards")


# --- C7 the end ---------------------------------------------------------------------------------------


def test_c7_the_game_ends_at_once_when_every_empire_in_play_is_completed() -> None:
    persia = empire(Emp.PERSIA)
    state = position(
        players=3,
        size="very-short",
        held={1: persia[:5]},
        hands={0: [E.BARBARIANS]},
        city_top=[persia[5]],
    )
    state.done[0] = ci.EMPIRE_MASKS[Emp.GREECE]
    state.done[2] = ci.EMPIRE_MASKS[Emp.EGYPT]
    state.city_deck = [cid(persia[5])]
    state.apply(ci.Pass())
    assert state.is_terminal() and state.current_player == ci.TERMINAL
    assert state.turn == 2 and state.hand_sizes[1] == 0  # ended before seat 1 took an event
    assert state.scores() == [1, 1, 1]


def test_c7_ends_at_once_in_the_middle_of_an_event() -> None:
    rome = empire(Emp.ROME)
    state = position(
        players=3, size="fast", held={0: rome[:4], 1: [rome[4]], 2: [rome[5]]}, hands={0: [E.UNIFICATION]}
    )
    for e in (Emp.GREECE, Emp.EGYPT, Emp.PERSIA):
        state.done[1] |= ci.EMPIRE_MASKS[e]
    state.apply(ci.Play(E.UNIFICATION, empire=Emp.ROME))
    assert state.is_terminal() and state.scores() == [1, 3, 0]
    assert state.log[-1].outcome[-1] == ci.Outcome("complete", 0, -1, Emp.ROME)


def _empty_table(players: int = 3, **kw: object) -> ci.State:
    state = position(players, city_rest=False, event_rest=False, **kw)  # type: ignore[arg-type]
    state.quiet = True
    return state


def test_c7_a_silent_round_with_both_decks_empty_ends_the_game() -> None:
    state = _empty_table()
    state.apply(ci.Pass())
    assert state.is_terminal() and state.round == 1 and state.turn == 3


def test_c7_a_round_with_an_event_played_goes_on() -> None:
    state = _empty_table(hands={1: [E.BARBARIANS, E.BARBARIANS]})
    state.apply(ci.Pass())
    assert state.active == 1 and not state.is_terminal()
    state.apply(ci.Play(E.BARBARIANS))  # played in round 1: round 2 follows
    assert state.round == 2 and state.active == 1 and state.quiet
    state.apply(ci.Play(E.BARBARIANS))  # played in round 2: round 3 follows, silent, and ends it
    assert state.is_terminal() and state.round == 3 and state.turn == 9


def test_c7_decks_not_empty_when_the_round_started() -> None:
    state = position(players=2, city_top=["Rome"], city_rest=False, event_rest=False)
    state.apply(ci.Pass())  # seat 1 takes Rome; round 2 starts with both decks empty, silent
    assert state.is_terminal() and state.round == 2 and state.quiet and state.held[1] == mask("Rome")


def test_c7_the_game_ends_after_round_max_rounds() -> None:
    state = stacked_game(2)
    state.params = ci.Params(max_rounds=3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(__import__("random").Random(0)))
        else:
            state.apply(ci.Pass() if ci.Pass() in state.legal_actions() else state.legal_actions()[0])
    assert state.round == 3 and state.turn == 6


def test_c7_score_is_empires_plus_wonders_bonus() -> None:
    state = position(players=3)
    state.done[0] = ci.EMPIRE_MASKS[Emp.ROME] | ci.EMPIRE_MASKS[Emp.CELTS]
    state.done[1] = ci.EMPIRE_MASKS[Emp.GREECE]
    state.wonders = 1
    assert state.scores() == [2, 6, 0]
    assert state.observation(2).scores == (2, 6, 0)


@pytest.mark.parametrize(
    ("empires", "held", "ranks"),
    [
        ((1, 1, 0), (3, 3, 9), [1, 1, 3]),
        ((1, 1, 0), (4, 3, 9), [1, 2, 3]),
        ((0, 0, 0), (0, 0, 0), [1, 1, 1]),
        ((2, 1, 1, 0), (0, 5, 5, 9), [1, 2, 2, 4]),
    ],
)
def test_c7_ties_broken_by_cities_held_then_shared_competition_ranks(
    empires: tuple[int, ...], held: tuple[int, ...], ranks: list[int]
) -> None:
    state = position(players=len(empires))
    neutral_and_more = ci.cities_of(
        ci.EMPIRE_MASKS[Emp.ETRUSCANS] | ci.NEUTRAL_MASK | ci.EMPIRE_MASKS[Emp.JEWS]
    )
    given = 0
    for seat, (count, cities) in enumerate(zip(empires, held, strict=True)):
        for e in range(count):
            state.done[seat] |= ci.EMPIRE_MASKS[(seat * 2 + e) % 5]
        state.held[seat] = ci.mask_of(*neutral_and_more[given : given + cities])
        given += cities
    assert state.ranks() == ranks


def test_round_and_turn_counters() -> None:
    state = stacked_game(3)
    assert (state.round, state.turn, state.active) == (1, 1, 0)
    while state.active != 0 or state.turn == 1:
        state.apply(ci.Pass() if decision_of(state) == D.PLAY else state.legal_actions()[0])
    assert (state.round, state.turn) == (2, 4) and state.phase == TURN


def test_c7_a_trade_that_ends_the_game_still_hands_over_both_cities() -> None:
    persia = empire(Emp.PERSIA)
    state = position(
        players=2, size="fast", held={0: [*persia[:5], "Lisbon"], 1: [persia[5]]}, hands={0: [E.TRADE]}
    )
    for e in (Emp.ROME, Emp.GREECE, Emp.EGYPT):
        state.done[1] |= ci.EMPIRE_MASKS[e]
    state.city_deck = [c for c in state.city_deck if not state.done[1] >> c & 1]
    state.apply(ci.Play(E.TRADE, target=1, give_city=cid("Lisbon"), take_city=cid(persia[5])))
    assert state.is_terminal() and state.scores() == [1, 3]
    assert state.held == [0, mask("Lisbon")]  # the last empire left play; Lisbon changed hands
