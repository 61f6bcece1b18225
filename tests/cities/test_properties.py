"""Property tests: random legal games with every invariant checked after every step.

Games are driven by seeded RNGs (one for shuffles, one for the seats' random choices) so a
failure names the seed that reproduces it. Default run: 30 audited games (card conservation,
scores and decisions after every step; JSON round trips, clones, apply paths and legality
probes at sampled steps) and 300 games checked at their end; ``-m slow`` adds many more.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdk.games import cities as ci

from . import invariants as inv

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=ci.MIN_PLAYERS, max_value=ci.MAX_PLAYERS)
SIZES = st.sampled_from(sorted(ci.SIZES))
#: A bound no game should reach: 60 rounds of 6 seats, each with a handful of decisions.
MAX_STEPS = 20_000


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def play_random(players: int, seed: int, size: str = "full") -> tuple[ci.State, list[ci.Step]]:
    """One random game: ``sample_chance`` for shuffles, ``sample_action`` for every seat."""
    chance, choices = random.Random(seed), random.Random(~seed)
    state = ci.new_game(players, ci.Params(size=size))
    steps: list[ci.Step] = []
    while not state.is_terminal():
        step: ci.Step = (
            state.sample_chance(chance) if state.is_chance_node() else state.sample_action(choices)
        )
        state.apply(step)
        steps.append(step)
        assert len(steps) < MAX_STEPS, "the game does not end"
    return state, steps


def replay(players: int, size: str, steps: list[ci.Step]) -> ci.State:
    state = ci.new_game(players, ci.Params(size=size))
    for step in steps:
        state.apply(step)
    return state


def audit_game(players: int, seed: int, size: str) -> None:
    chance, choices, audit = random.Random(seed), random.Random(~seed), random.Random(seed ^ 0xC17)
    state = ci.new_game(players, ci.Params(size=size))
    steps = 0
    try:
        while not state.is_terminal():
            inv.check_state(state)
            step: ci.Step
            if state.is_chance_node():
                step = state.sample_chance(chance)
            else:
                if audit.random() < 0.15:
                    inv.check_legality(state, audit)
                step = state.sample_action(choices)
                assert step in state.legal_actions(), f"sample_action gave {step!r}, not a legal action"
            if audit.random() < 0.2:
                inv.check_round_trips(state, step)
                inv.check_clone_independent(state, step)
            state.apply(step)
            steps += 1
            assert steps < MAX_STEPS, "the game does not end"
        inv.check_state(state)
    except AssertionError as exc:
        exc.add_note(f"players={players} seed={seed} size={size} after {steps} steps at {state!r}")
        raise


@_settings(30)
@given(players=PLAYERS, seed=SEEDS, size=SIZES)
def test_random_games_keep_every_invariant_after_every_step(players: int, seed: int, size: str) -> None:
    """Cards conserved, scores right, decisions never empty, JSON and clones exact, apply == listed."""
    audit_game(players, seed, size)


def test_hundreds_of_games_end_well_and_replay() -> None:
    """300 seeded games end within the round limit; every tenth re-simulates from its steps."""
    for game in range(300):
        players = 2 + game % 5
        size = sorted(ci.SIZES)[game % 4]
        state, steps = play_random(players, 10_000 + game, size)
        try:
            assert state.round <= state.params.max_rounds
            inv.check_state(state)
            ranks = state.ranks()
            assert sorted(ranks)[0] == 1 and all(1 <= r <= players for r in ranks)
            if game % 10 == 0:
                assert replay(players, size, steps) == state
        except AssertionError as exc:
            exc.add_note(f"seed={10_000 + game} players={players} size={size}")
            raise


def test_every_event_kind_gets_played_in_random_games() -> None:
    """Random play reaches every playable kind and every decision kind (coverage of the audit)."""
    seen_events: set[ci.EventType] = set()
    seen_decisions: set[ci.Decision] = set()
    for game in range(60):
        chance, choices = random.Random(game), random.Random(~game)
        state = ci.new_game(2 + game % 5)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(chance))
                continue
            decision = state.decision
            assert decision is not None
            seen_decisions.add(decision)
            action = state.sample_action(choices)
            if isinstance(action, ci.Play):
                seen_events.add(ci.EventType(action.event))
            state.apply(action)
    assert seen_events == set(ci.EventType) - set(ci.PROTECTIONS)
    assert seen_decisions == set(ci.Decision)


def test_sample_action_is_uniform_over_legal_actions() -> None:
    """Chi-square check on a play decision mixing small and large event shapes."""
    from .builders import E, position

    state = position(
        held={0: ["Rome", "Ur"], 1: ["Athens", "Lisbon"], 2: ["Utica"]},
        hands={0: [E.TRADE, E.ATTACK, E.CURSE, E.EDUCATION, E.FLOOD, E.PLAGUE]},
    )
    legal = state.legal_actions()
    counts = dict.fromkeys(legal, 0)
    per_action = 200
    rng = random.Random(2024)
    for _ in range(per_action * len(legal)):
        counts[state.sample_action(rng)] += 1
    chi2 = sum((c - per_action) ** 2 / per_action for c in counts.values())
    df = len(legal) - 1
    assert (chi2 - df) / (2 * df) ** 0.5 < 5, f"{len(legal)} actions: chi2={chi2:.0f}, df={df}"


def test_clone_is_independent() -> None:
    state, _ = play_random(4, 5)
    rng = random.Random(9)
    state = ci.new_game(4)
    while not state.is_terminal() and state.turn < 20:
        state.apply(state.sample_chance(rng) if state.is_chance_node() else state.sample_action(rng))
    copy = state.clone()
    before = state.to_json()
    while not copy.is_terminal():
        copy.apply(copy.sample_chance(rng) if copy.is_chance_node() else copy.sample_action(rng))
    assert state.to_json() == before and copy != state
    assert copy.hands is not state.hands and all(
        a is not b for a, b in zip(copy.hands, state.hands, strict=True)
    )


@pytest.mark.slow
@_settings(1500)
@given(players=PLAYERS, seed=SEEDS, size=SIZES)
def test_soak_random_games_every_step(players: int, seed: int, size: str) -> None:
    audit_game(players, seed, size)
