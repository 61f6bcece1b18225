"""Property tests: random legal games with every invariant checked after every step.

Games are driven exactly like :func:`sm.play_game` (a seeded policy per seat, dice drawn with
``state.sample_chance`` from a seeded RNG), so a failure names the seed that reproduces it. Seats are
``sm.RandomPolicy`` or, for coverage of rare placements, :class:`CollectorPolicy`. The checks themselves
live in :mod:`.invariants`. Default run: 160 audited games, 1500 end-checked games, 30 games with sampled
placement audits; ``-m slow`` adds 5000 audited and 30 000 end-checked games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdk.games import saint_malo as sm

from . import invariants as inv
from .builders import S, fill, roll_and_stop, to_place

#: A sanity bound on game length; random games last about 30-40 rounds.
MAX_ROUNDS = 150
#: Place decisions with more legal actions than this are not applied one by one.
APPLY_ALL_LIMIT = 3000

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=5)
_SIDE_BONUS = st.sampled_from(("person", "coins", "vp"))
VARIANTS = st.builds(
    sm.Params,
    start_crates=st.lists(st.sampled_from(inv.bits(inv.SPACES_REF)), unique=True, max_size=8).map(tuple),
    side_bonuses=st.tuples(_SIDE_BONUS, _SIDE_BONUS, _SIDE_BONUS, _SIDE_BONUS),
    cannons=st.integers(min_value=0, max_value=6),
)
#: Mostly the published game, sometimes a random bracket variant (R2/R4/R5 parameters).
PARAMS = st.one_of(st.just(sm.Params()), st.just(sm.Params()), VARIANTS)
#: Half the games uniformly random, half leaning towards big placements (see ``CollectorPolicy``).
FOCUS = st.sampled_from((0.0, 0.0, 0.6, 0.9))


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


_LEVELS: dict[int, tuple[sm.Person, ...]] = {
    level: tuple(p for p in sm.Person if p.level == level) for level in range(1, 6)
}


class CollectorPolicy:
    """Legal random play that, with probability ``focus`` per decision, plays for big placements.

    Uniform random play spends its coins at once and rarely collects four or five equal dice, so it
    almost never delivers logs, places a juggler or a noble, or builds a size-5 church. This policy keeps
    the most common symbol, chooses the most shown symbol, rotates as little as it can and places the
    highest person its heads allow; otherwise it defers to ``state.sample_action``.
    """

    def __init__(self, rng: random.Random, focus: float) -> None:
        self.rng = rng
        self.focus = focus

    def __call__(self, state: sm.State) -> sm.Action:
        rng = self.rng
        if rng.random() >= self.focus:
            return state.sample_action(rng)
        decision = state.decision
        if decision is sm.Decision.KEEP:
            counts = {face: state.dice.count(face) for face in inv.SCORING_REF}
            most = max(counts.values())
            target = rng.choice([face for face, count in counts.items() if count == most])
            return sm.Keep(sum(1 << die for die, face in enumerate(state.dice) if face != target))
        if decision is sm.Decision.CHOOSE:
            available = state.available_symbols()
            most = max(state.count(s) for s in available)
            return sm.Choose(rng.choice([s for s in available if state.count(s) == most]))
        if decision is sm.Decision.ROTATE:
            rotations = [a for a in state.legal_actions() if isinstance(a, sm.Rotate)]
            least = min(a.dice.bit_count() for a in rotations)
            return rng.choice([a for a in rotations if a.dice.bit_count() == least])
        if decision is sm.Decision.PLACE and state.chosen == S.HEAD:
            person = rng.choice(_LEVELS[min(5, state.count(S.HEAD))])
            empty = inv.bits(inv.SPACES_REF & ~state.cities[state.current].filled)
            return sm.PlacePerson(person, rng.choice(empty))
        return state.sample_action(rng)


def game_rngs(seed: int, players: int, focus: float = 0.0) -> tuple[random.Random, list[sm.Policy]]:
    """The dice RNG and one seeded policy per seat for game ``seed``.

    ``focus == 0`` gives plain :class:`sm.RandomPolicy` seats, otherwise :class:`CollectorPolicy` ones.
    """
    dice = random.Random(seed * 16)
    seat_rngs = [random.Random(seed * 16 + 1 + seat) for seat in range(players)]
    if not focus:
        return dice, [sm.RandomPolicy(rng) for rng in seat_rngs]
    return dice, [CollectorPolicy(rng, focus) for rng in seat_rngs]


# --- driving a game with checks ------------------------------------------------------------------------


def check_roll_offered(state: sm.State, roll: sm.Roll) -> None:
    """A sampled roll has one face per die being rolled; small rolls are among the listed outcomes."""
    dice = state.to_roll.bit_count()
    assert len(roll.faces) == dice and all(f in sm.Symbol for f in roll.faces)
    if dice <= 2:
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 6**dice and math.isclose(sum(p for _, p in outcomes), 1.0)
        assert roll in {r for r, _ in outcomes}


def check_action_offered(state: sm.State, action: sm.Action) -> None:
    """A policy's action is legal; small decisions are compared against brute force."""
    decision = state.decision
    if decision is sm.Decision.KEEP:
        assert state.legal_actions() == [sm.Keep(mask) for mask in range(32)]
        assert action in state.legal_actions()
    elif decision is sm.Decision.CHOOSE:
        available = state.available_symbols()
        assert set(available) == inv.brute_available(state), f"available {available} at {state!r}"
        assert state.legal_actions() == [sm.Choose(s) for s in available]
        assert action in state.legal_actions()
    elif decision is sm.Decision.ROTATE:
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal) and action in legal
        accepted = inv.accepted_subset(state, [sm.Rotate(mask) for mask in range(32)])
        assert accepted == set(legal), f"apply accepts {accepted}, legal_actions lists {legal}"
    else:
        assert decision in (sm.Decision.PLACE, sm.Decision.BONUS_PERSON)
        assert inv.oracle_place_legal(state, action), f"sampled {action!r} breaks R4 at {state!r}"


def play_audited(
    players: int,
    seed: int,
    params: sm.Params,
    audit: random.Random,
    *,
    focus: float = 0.0,
    round_trip_rate: float = 0.03,
) -> tuple[sm.State, sm.GameRecord, list[int]]:
    """Play one game, checking every invariant after every step; returns turns played per seat.

    ``audit`` (independent of the game's RNGs) picks the moments for JSON round trips (the game then
    continues from the restored state) and clone checks, so the game itself equals ``play_game``'s.
    """
    dice, policies = game_rngs(seed, players, focus)
    state = sm.new_game(players, params)
    record = sm.GameRecord(players, state.params)
    turns = [0] * players
    try:
        inv.check_state(state)
        while not state.is_terminal():
            assert state.turn < MAX_ROUNDS * players, "the game does not end"
            step: sm.Step
            if state.is_chance_node():
                step = state.sample_chance(dice)
                check_roll_offered(state, step)
            else:
                step = policies[state.current](state)
                check_action_offered(state, step)
            inv.check_step_json(step)
            before = state.clone()
            unchecked = state.clone()
            unchecked.apply_unchecked(step)
            state.apply(step)
            assert inv.snapshot(unchecked) == inv.snapshot(state), "apply_unchecked differs from apply"
            inv.check_transition(before, step, state)
            # Only the mover's city and, after an attack, cannons elsewhere can have changed.
            turn_over = state.turn != before.turn
            seats = {before.current}
            if len(state.attacks) != len(before.attacks):
                seats.update(range(players))
            inv.check_state(state, seats, ranks=turn_over)
            record.steps.append(step)
            if turn_over:
                turns[before.current] += 1
            chance = audit.random()
            if chance < round_trip_rate:
                state = inv.json_round_trip(state)
            elif chance < 2 * round_trip_rate:
                inv.check_clone_independent(state, audit)
    except AssertionError as exc:
        exc.add_note(
            f"seed={seed} players={players} focus={focus} params={params!r} after step "
            f"#{len(record.steps)} (turn {state.turn}, seat {state.current}); "
            f"reproduce with game_rngs({seed}, {players}, {focus})"
        )
        raise
    return state, record, turns


def audit_game(players: int, seed: int, params: sm.Params, focus: float = 0.0) -> None:
    """One fully audited game, then the end, the replay and a plain ``play_game`` re-run."""
    state, record, turns = play_audited(players, seed, params, random.Random(~seed), focus=focus)
    assert len(set(turns)) == 1 and sum(turns) == state.turn, f"turns per seat {turns}"
    inv.check_final(state, record)
    dice, policies = game_rngs(seed, players, focus)
    again, again_record = sm.play_game(policies, dice, params)
    assert again_record.steps == record.steps, "the audited game is not play_game's game"
    assert inv.snapshot(again) == inv.snapshot(state)


# --- the properties ------------------------------------------------------------------------------------


@_settings(160)
@given(players=PLAYERS, seed=SEEDS, params=PARAMS, focus=FOCUS)
def test_random_games_keep_every_invariant_after_every_step(
    players: int, seed: int, params: sm.Params, focus: float
) -> None:
    """Board, stock, scores, pirates, turn order, JSON and clones stay right through whole games."""
    audit_game(players, seed, params, focus)


def test_thousands_of_games_end_well() -> None:
    """1500 seeded games (2-5 players, half of them focused) end consistently; every 10th replays."""
    for game in range(1500):
        players = 2 + game % 4
        dice, policies = game_rngs(10_000 + game, players, 0.8 if game % 2 else 0.0)
        state, record = sm.play_game(policies, dice)
        try:
            assert state.turn < MAX_ROUNDS * players
            inv.check_final(state, record, replay=game % 10 == 0)
        except AssertionError as exc:
            exc.add_note(f"seed={10_000 + game} players={players}")
            raise


def audit_placements(state: sm.State, rng: random.Random) -> None:
    """Generator, checker, sampler and the independent R4 oracle agree on one place decision."""
    snap = inv.snapshot(state)
    legal = list(state.iter_legal_actions())
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "iter_legal_actions repeats an action"
    assert legal, "a place decision with no legal action"
    if len(legal) <= APPLY_ALL_LIMIT:
        assert state.legal_actions() == legal
        for action in legal:
            assert inv.oracle_place_legal(state, action), f"generated {action!r} breaks R4"
            checked, unchecked = state.clone(), state.clone()
            checked.apply(action)
            unchecked.apply_unchecked(action)
            assert inv.snapshot(checked) == inv.snapshot(unchecked), f"apply paths differ on {action!r}"
    for _ in range(20):
        sampled = state.sample_action(rng)
        assert sampled in legal_set, f"sample_action gave {sampled!r}, not a generated action"
    for candidate in inv.candidate_actions(state, rng, count=60):
        expected = inv.oracle_place_legal(state, candidate)
        assert (candidate in legal_set) == expected, f"{candidate!r}: oracle says legal={expected}"
        trial = state.clone()
        try:
            trial.apply(candidate)
            accepted = True
        except sm.IllegalActionError as exc:
            accepted = False
            assert exc.rule.startswith("R"), exc.rule
            assert inv.snapshot(trial) == snap, f"rejecting {candidate!r} changed the state"
        assert accepted == expected, f"{candidate!r}: accepted={accepted}, oracle says {expected}"
    assert inv.snapshot(state) == snap


@_settings(30)
@given(players=PLAYERS, seed=SEEDS, params=PARAMS, focus=FOCUS)
def test_place_generator_checker_and_oracle_agree(
    players: int, seed: int, params: sm.Params, focus: float
) -> None:
    """For sampled place decisions every generated action applies and every candidate is judged alike."""
    audit = random.Random(seed ^ 0x5A5A)

    def maybe_audit(state: sm.State) -> None:
        decision = state.decision  # every (rare) bonus person, about 1 in 25 placements
        if decision is sm.Decision.BONUS_PERSON or (decision is sm.Decision.PLACE and audit.random() < 0.04):
            audit_placements(state, audit)

    dice, policies = game_rngs(seed, players, focus)
    state = sm.new_game(players, params)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(dice))
        else:
            maybe_audit(state)
            state.apply(policies[state.current](state))


def _place_position(faces: tuple[sm.Symbol, ...], symbol: sm.Symbol, logs: int = 2) -> sm.State:
    """Seat 0 of a fresh 2-player game about to place ``symbol`` rolled as ``faces``."""
    state = sm.new_game(2)
    state.cities[0].logs = logs
    to_place(state, faces, symbol)
    return state


def _bonus_position() -> sm.State:
    """Seat 0 completes the top side with its last wall: a bonus person is pending."""
    state = sm.new_game(3)
    top = inv.SIDES_REF[0]
    last = 1 << sm.square(0, 3)
    fill(state.cities[0], walls=top & ~last)
    state.cities[0].logs = 3
    roll_and_stop(state, S.WALL, S.HEAD, S.HEAD, S.LOG, S.SWORDS)
    state.apply(sm.Choose(S.WALL))
    state.apply(sm.Rotate(0))
    state.apply(sm.PlaceWalls(last))
    assert state.decision is sm.Decision.BONUS_PERSON
    return state


@pytest.mark.parametrize(
    "make",
    [
        lambda: _place_position((S.LOG,) * 5, S.LOG),
        lambda: _place_position((S.CRATE,) * 5, S.CRATE),
        lambda: _place_position((S.WALL,) * 5, S.WALL),
        lambda: _place_position((S.CROSS,) * 5, S.CROSS),
        lambda: _place_position((S.HEAD,) * 5, S.HEAD, logs=3),
        lambda: _place_position((S.HEAD, S.HEAD, S.HEAD, S.SWORDS, S.SWORDS), S.HEAD, logs=1),
        _bonus_position,
    ],
    ids=["logs", "crates", "walls", "church", "heads", "architect-1-log", "bonus-person"],
)
def test_place_audit_on_full_dice(make: Callable[[], sm.State]) -> None:
    """Every symbol with all five dice (and a bonus person): generator, checker and oracle agree."""
    audit_placements(make(), random.Random(7))


@pytest.mark.parametrize(
    ("faces", "symbol", "logs"),
    [
        ((S.HEAD, S.HEAD, S.HEAD, S.CRATE, S.SWORDS), S.HEAD, 2),
        ((S.HEAD,) * 5, S.HEAD, 3),
        ((S.WALL, S.WALL, S.WALL, S.LOG, S.LOG), S.WALL, 2),
        ((S.CRATE,) * 4 + (S.CROSS,), S.CRATE, 2),
        ((S.CROSS,) * 5, S.CROSS, 2),
    ],
    ids=["3-heads", "5-heads", "3-walls", "4-crates", "5-crosses"],
)
def test_sample_action_is_uniform(faces: tuple[sm.Symbol, ...], symbol: sm.Symbol, logs: int) -> None:
    """Chi-square sanity check of ``sample_action`` on fixed positions, with a fixed RNG seed."""
    state = _place_position(faces, symbol, logs)
    legal = state.legal_actions()
    counts = dict.fromkeys(legal, 0)
    per_action = 20
    rng = random.Random(2024)
    for _ in range(per_action * len(legal)):
        counts[state.sample_action(rng)] += 1  # KeyError: sampled an action not in the legal list
    chi2 = sum((c - per_action) ** 2 / per_action for c in counts.values())
    df = len(legal) - 1
    z = (chi2 - df) / math.sqrt(2 * df)
    assert z < 5, f"{len(legal)} actions: chi2={chi2:.0f}, df={df}, z={z:.1f}"


@_settings(200)
@given(counts=st.lists(st.integers(min_value=0, max_value=7), min_size=5, max_size=5))
def test_church_series_matches_independent_scoring(counts: list[int]) -> None:
    """The engine's church series equals this suite's closed-form reading of R6."""
    assert sm.church_series_points(counts) == inv.church_series_ref(counts)


def test_reference_tables_match_the_rulings() -> None:
    """The suite's own geometry agrees with the engine's, and R6's worked example scores 25."""
    assert inv.church_series_ref([3, 2, 1, 1, 2]) == 25 == sm.church_series_points([3, 2, 1, 1, 2])
    assert (sm.SPACES, sm.OUTER, sm.INNER) == (inv.SPACES_REF, inv.OUTER_REF, inv.INNER_REF)
    assert sm.SPACES.bit_count() == 45 and sm.OUTER.bit_count() == 20
    assert tuple(sm.SIDE_MASKS) == inv.SIDES_REF
    assert all(sm.ADJACENT[s] == inv.adjacent_ref(s) for s in inv.bits(inv.SPACES_REF))


# --- soak ----------------------------------------------------------------------------------------------


@pytest.mark.slow
@_settings(5000)
@given(players=PLAYERS, seed=SEEDS, params=PARAMS, focus=FOCUS)
def test_soak_random_games_every_step(players: int, seed: int, params: sm.Params, focus: float) -> None:
    """The per-step audit over many more games (run with ``-m slow``)."""
    audit_game(players, seed, params, focus)


@pytest.mark.slow
def test_soak_many_games_end_well() -> None:
    """30 000 seeded games end consistently; every 5th replays from its JSON record (``-m slow``)."""
    for game in range(30_000):
        players = 2 + game % 4
        dice, policies = game_rngs(1_000_000 + game, players, 0.8 if game % 2 else 0.0)
        state, record = sm.play_game(policies, dice, check=game % 2 == 0)
        try:
            inv.check_final(state, record, replay=game % 5 == 0)
        except AssertionError as exc:
            exc.add_note(f"seed={1_000_000 + game} players={players}")
            raise
