"""What a seat may know (C4, C8, C11, C12): observations, hidden-state resampling, determinization.

The central property: redrawing everything a seat cannot know leaves its observation
unchanged. ``resample_hidden`` is written from the definition of what is secret, not from
the observation, so an observation that leaked a secret would make these tests fail.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdk.games import cities as ci

from . import invariants as inv
from .builders import D, E, cid, event_position, keep_order, position

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=ci.MIN_PLAYERS, max_value=ci.MAX_PLAYERS)
#: Decisions whose moments are always probed; other moments are sampled.
RARE = (D.REACT, D.GIVE_EVENT, D.GIVE_CITY, D.EXCHANGE, D.DRAW)


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def moments(players: int, seed: int, size: str = "full", rate: float = 0.08) -> list[ci.State]:
    """Copies of a random game's states: every rare decision, chance nodes and a sample of the rest."""
    chance, choices, pick = random.Random(seed), random.Random(~seed), random.Random(seed + 7)
    state = ci.new_game(players, ci.Params(size=size))
    found = []
    while not state.is_terminal():
        if state.decision in RARE or pick.random() < rate:
            found.append(state.clone())
        state.apply(state.sample_chance(chance) if state.is_chance_node() else state.sample_action(choices))
    found.append(state.clone())
    return found


def hidden_from(state: ci.State, seat: int) -> tuple[object, ...]:
    """Everything ``seat`` may not know."""
    others = tuple(tuple(state.hands[s]) for s in range(state.n) if s != seat)
    piles = tuple(tuple(state.face_down[s]) for s in range(state.n) if s != seat)
    return others, piles, tuple(state.event_deck), tuple(state.city_deck)


@_settings(25)
@given(players=PLAYERS, seed=SEEDS, size=st.sampled_from(sorted(ci.SIZES)))
def test_observation_is_unchanged_when_everything_hidden_is_redrawn(
    players: int, seed: int, size: str
) -> None:
    rng = random.Random(seed)
    for state in moments(players, seed, size):
        for seat in range(players):
            seen = state.observation(seat)
            other = state.resample_hidden(seat, rng)
            assert other.observation(seat) == seen, f"seat {seat} can tell a resampled state at {state!r}"
            inv.check_state(other)
            if state.current_player == seat:
                assert other.legal_actions() == state.legal_actions()


def test_resampling_really_changes_what_is_hidden() -> None:
    rng = random.Random(1)
    changed = total = 0
    for seed in range(6):
        for state in moments(4, seed):
            for seat in range(4):
                if sum(state.hand_sizes) - state.hand_sizes[seat] + len(state.event_deck) < 4:
                    continue
                total += 1
                changed += hidden_from(state.resample_hidden(seat, rng), seat) != hidden_from(state, seat)
    assert total > 100 and changed / total > 0.9, (changed, total)


def test_resampling_keeps_what_the_seat_knows() -> None:
    for state in moments(3, 11):
        for seat in range(3):
            other = state.resample_hidden(seat, random.Random(seat))
            assert other.hands[seat] == state.hands[seat] and other.face_down[seat] == state.face_down[seat]
            assert other.held == state.held and other.log == state.log
            assert other.hand_sizes == state.hand_sizes and len(other.event_deck) == len(state.event_deck)
            assert sorted(other.city_deck) == sorted(state.city_deck)


@_settings(15)
@given(players=PLAYERS, seed=SEEDS)
def test_determinized_states_agree_with_the_observation_and_the_legal_actions(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    for state in moments(players, seed, rate=0.05):
        for seat in range(players):
            seen = state.observation(seat)
            guess = ci.determinize(seen, rng)
            assert guess.observation(seat) == seen, f"determinize disagrees for seat {seat} at {state!r}"
            inv.check_state(guess)
            if state.current_player == seat:
                assert guess.legal_actions() == state.legal_actions()
                assert guess.current_player == seat and guess.decision == state.decision


def test_determinized_and_resampled_states_play_on_to_the_end() -> None:
    rng = random.Random(5)
    for state in moments(4, 21, rate=0.03):
        if state.is_terminal() or state.is_chance_node():
            continue
        seat = state.current_player
        for copy in (ci.determinize(state.observation(seat), rng), state.resample_hidden(seat, rng)):
            while not copy.is_terminal():
                copy.apply(copy.sample_chance(rng) if copy.is_chance_node() else copy.sample_action(rng))
            inv.check_state(copy)


def test_observations_round_trip_through_json() -> None:
    for state in moments(5, 3, rate=0.1):
        for seat in range(5):
            seen = state.observation(seat)
            assert ci.Observation.from_json(json.loads(json.dumps(seen.to_json()))) == seen


def test_the_observation_changes_with_own_secrets_only() -> None:
    state = position(players=3, hands={0: [E.ATTACK], 1: [E.FLOOD, E.TRADE], 2: [E.CURSE]})
    state.face_down[2][E.VICTORY] = 1
    seen = state.observation(0)
    state.hands[1][E.FLOOD] -= 1
    state.hands[1][E.PLAGUE] += 1  # same hand size, another card
    state.face_down[2][E.VICTORY] = 0
    state.face_down[2][E.CHARISMA] = 1  # same pile size, another card
    state.event_deck[0], state.event_deck[-1] = state.event_deck[-1], state.event_deck[0]
    state.city_deck.reverse()
    assert state.observation(0) == seen
    state.hands[0][E.ATTACK] -= 1
    state.hands[0][E.TRADE] += 1
    assert state.observation(0) != seen  # the test can fail: own hand is seen


def test_pending_details_only_for_the_deciding_seat() -> None:
    state = event_position(
        held={1: ["Rome", "Capua"], 2: ["Milan"]}, hands={0: [E.COMMANDER_ROME], 2: [E.PROTECTION]}
    )
    state.apply(ci.Play(E.COMMANDER_ROME))
    assert state.current_player == 2 and state.decision == D.REACT
    asked = state.observation(2)
    assert asked.pending == ci.Pending(D.REACT, protections=(E.PROTECTION,))
    for seat in (0, 1):
        seen = state.observation(seat)
        assert seen.pending is None and seen.waiting is None and seen.waiting_seat == -1
        assert seen.resolving is not None and seen.resolving.play == ci.Play(E.COMMANDER_ROME)
        assert "protection" not in json.dumps(seen.to_json())


def _after_commander(seat_2_card: ci.EventType) -> ci.State:
    state = event_position(
        held={1: ["Rome"], 2: ["Capua"]},
        hands={0: [E.COMMANDER_ROME], 2: [seat_2_card, E.FLOOD]},
    )
    state.apply(ci.Play(E.COMMANDER_ROME))
    if state.decision == D.REACT:
        state.apply(ci.React(None))
    keep_order(state)
    return state


def test_c12_declining_leaves_no_trace() -> None:
    declined = _after_commander(E.BASIC_PROTECTION)  # seat 2 was asked and said no
    never = _after_commander(E.PLAGUE)  # seat 2 could not be asked
    assert declined.held == never.held == [0, 0, 0]
    for seat in (0, 1):
        assert declined.observation(seat) == never.observation(seat)
    assert declined.observation(2) != never.observation(2)  # seat 2's own hand differs


def test_other_seats_learn_which_card_was_revealed_and_by_whom() -> None:
    state = event_position(held={1: ["Rome"]}, hands={0: [E.ATTACK], 1: [E.GREAT_PROTECTION]})
    state.held[0] = ci.mask_of(cid("Carthage"))
    state.apply(ci.Play(E.ATTACK, target=1, take_city=cid("Rome")))
    state.apply(ci.React(E.GREAT_PROTECTION))
    seen = state.observation(2)
    assert seen.log[-1].revealed == ((1, E.GREAT_PROTECTION),)
    assert seen.hand_sizes[1] == 0


def test_education_returns_are_not_shown_to_others() -> None:
    state = event_position(hands={0: [E.EDUCATION, E.FLOOD, E.TRADE]})
    state.apply(ci.Play(E.EDUCATION, education=ci.EducationMode.EXCHANGE, returns=(E.FLOOD, E.TRADE)))
    keep_order(state)
    for seat in (1, 2):
        record = state.observation(seat).log[-1]
        assert record.play.returns == () and record.returned == 2
        assert record.outcome == (ci.Outcome("return", 0, -1, 2), ci.Outcome("events", 0, -1, 2))
