"""The Cities heuristic bot: a legal answer to every kind of decision, the same answer to the same
observation, and far stronger than a uniformly random player.

Answers are applied through the checked ``State.apply``, so an illegal one raises.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.cities_strength import outcome, play, schedule
from benchmarks.strength_stats import Timed, wilson
from bots.cities import CitiesHeuristicBot, CitiesPolicy, Weights, position_value
from sdk.games import cities as ci
from sdk.games.decisions import DecisionContext
from sdk.games.play import RandomPolicy, play_to_end
from sdk.games.registry import games

KINDS = tuple(ci.Decision)


def _cities_plugin_installed() -> bool:
    return "cities" in games()


def _context(seat: int, number: int) -> DecisionContext:
    return DecisionContext(f"cities-test-{number}", number, seat, 1000, 10_000, "cities")


def test_every_decision_kind_is_answered_legally() -> None:
    """Seat 0 is the bot throughout; the other seats' plays are random, and every other decision
    of theirs is the bot's too, so rare kinds (a Friendly exchange offered, a cursed draw,
    discards) come up often. Sizes and table sizes vary."""
    bot = CitiesHeuristicBot()
    asked: Counter[ci.Decision] = Counter()
    sizes = ("full", "regular", "fast", "very-short")
    for number in range(8):
        rng = random.Random(number)
        players = 2 + number % 3
        state = ci.new_game(players, ci.Params(size=sizes[number % len(sizes)]))
        counts = [0] * players
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player
            kind = state.decision
            assert kind is not None
            if seat != 0 and kind == ci.Decision.PLAY:
                state.apply(state.sample_action(rng))
                continue
            counts[seat] += 1
            observation = state.observation(seat)
            action = bot.decide(str(kind), observation, _context(seat, counts[seat]))
            if kind != ci.Decision.PLAY:  # a play decision may list thousands of Education plays
                assert action in state.legal_actions(), (kind, action)
            state.apply(action)
            asked[kind] += 1
    assert set(asked) == set(KINDS), asked
    assert min(asked.values()) >= 5, asked


def test_the_bot_refuses_a_decision_the_observation_does_not_show() -> None:
    state = ci.new_game(2)
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    seat = state.current_player
    with pytest.raises(ValueError, match="asked for a react decision"):
        CitiesHeuristicBot().decide("react", state.observation(seat), _context(seat, 1))


def test_decisions_depend_only_on_the_observation() -> None:
    """A fresh bot, one that has answered other decisions, and the observation after a trip
    through JSON (as another process would decode it) all give the same answer; the context
    changes nothing."""
    recorded: list[tuple[ci.Observation, ci.Action]] = []
    policy = CitiesPolicy()
    rng = random.Random(11)
    rival = random.Random(12)

    def recording(state: ci.State) -> ci.Action:
        observation = state.observation(1)
        action = policy.decide(observation)
        recorded.append((observation, action))
        return action

    play_to_end(ci.new_game(3), [RandomPolicy(rival), recording, RandomPolicy(rival)], rng)
    assert {observation.pending.kind for observation, _ in recorded if observation.pending} >= {
        ci.Decision.PLAY,
        ci.Decision.GIVE_CITY,
    }
    bot = CitiesHeuristicBot()
    for number, (observation, action) in enumerate(recorded):
        kind = str(observation.pending.kind if observation.pending else "")
        assert CitiesPolicy().decide(observation) == action
        assert bot.decide(kind, observation, _context(1, number + 1)) == action
        assert bot.decide(kind, observation, DecisionContext("other", 999, 1, 5, 5, "cities")) == action
        again = ci.Observation.from_json(observation.to_json())
        assert policy.decide(again) == action


def _position(
    held: tuple[int, int], hands: tuple[list[ci.EventType], list[ci.EventType]], active: int = 0
) -> ci.State:
    """A two-player position in round 10: the given cities and events held, every other card in the
    decks, ``active`` to play."""
    state = ci.new_game(2)
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    data = state.to_json()
    events = list(ci.EVENT_CARDS)
    for hand in hands:
        for ev in hand:
            events.remove(ev)
    data.update(
        round=10,
        turn=19 + active,
        active=active,
        held=list(held),
        hands=[{ev.name.lower(): hand.count(ev) for ev in set(hand)} for hand in hands],
        city_deck=ci.cities_of(ci.ALL_CITIES & ~(held[0] | held[1])),
        event_deck=[ev.name.lower() for ev in events],
        pending="play",
        decider=active,
    )
    return ci.State.from_json(data)


ROME = ci.EMPIRE_MASKS[ci.Empire.ROME]
GREECE = ci.EMPIRE_MASKS[ci.Empire.GREECE]
CAPUA = ci.CITY_BY_NAME["Capua"].id
RAVENNA = ci.CITY_BY_NAME["Ravenna"].id
ATHENS, SPARTA = ci.CITY_BY_NAME["Athens"].id, ci.CITY_BY_NAME["Sparta"].id
LISBON, KNOSSOS = ci.CITY_BY_NAME["Lisbon"].id, ci.CITY_BY_NAME["Knossos"].id
E = ci.EventType


def test_attack_takes_the_city_that_completes_an_empire() -> None:
    state = _position((ROME & ~(1 << RAVENNA), ci.mask_of(RAVENNA, ATHENS)), ([E.ATTACK], [E.CURSE]))
    assert CitiesPolicy()(state) == ci.Play(E.ATTACK, target=1, take_city=RAVENNA)


def test_unification_is_played_when_it_completes_an_empire() -> None:
    greece = ci.cities_of(GREECE)
    state = _position((ci.mask_of(*greece[:4]), ci.mask_of(*greece[4:])), ([E.UNIFICATION, E.CURSE], []))
    assert CitiesPolicy()(state) == ci.Play(E.UNIFICATION, empire=ci.Empire.GREECE)
    state.apply(CitiesPolicy()(state))
    assert state.scores()[0] == 1


def test_protection_is_revealed_against_an_attack_that_breaks_an_empire() -> None:
    """Seat 1 attacks Capua, one of seat 0's five Roman cities; seat 0 holds Basic protection."""
    state = _position(
        (ROME & ~(1 << RAVENNA), ci.mask_of(RAVENNA, ATHENS)), ([E.BASIC_PROTECTION], [E.ATTACK]), 1
    )
    state.apply(ci.Play(E.ATTACK, target=0, take_city=CAPUA))
    assert state.decision == ci.Decision.REACT and state.current_player == 0
    assert CitiesPolicy()(state) == ci.React(E.BASIC_PROTECTION)


def test_barbarians_take_the_cities_worth_least() -> None:
    """Seat 1's Barbarians: seat 0 gives up its two neutral cities and lone Sparta, not Rome."""
    held = ROME & ~(1 << RAVENNA) | ci.mask_of(LISBON, KNOSSOS, SPARTA)
    state = _position((held, 1 << RAVENNA), ([], [E.BARBARIANS]), 1)
    state.apply(ci.Play(E.BARBARIANS))
    given = []
    while state.current_player == 0 and state.decision == ci.Decision.GIVE_CITY:
        action = CitiesPolicy()(state)
        assert isinstance(action, ci.GiveCity)
        given.append(action.city)
        state.apply(action)
    assert sorted(given) == sorted([LISBON, KNOSSOS, SPARTA])


def test_a_finished_game_is_valued_by_its_outcome() -> None:
    state, _ = ci.play_game([CitiesPolicy(), ci.RandomPolicy(random.Random(5))], random.Random(5))
    weights = Weights()
    scores, ranks, held = state.scores(), state.ranks(), state.held
    expected = scores[0] - scores[1] + weights.city * (held[0].bit_count() - held[1].bit_count())
    expected += weights.win if ranks == [1, 2] else weights.win / 2 if ranks == [1, 1] else 0
    assert position_value(state, 0, weights) == pytest.approx(expected)


def test_decisions_are_quick() -> None:
    """Processor time, so that other jobs on the machine do not count: well under 50 ms a decision."""

    policy = CitiesPolicy()
    rng = random.Random(21)
    rival = random.Random(22)
    timed = Timed(policy)
    play_to_end(ci.new_game(2), [timed, RandomPolicy(rival)], rng)
    times = sorted(timed.cpu_ms)
    assert times[len(times) // 2] < 20, times[len(times) // 2]
    assert times[-1] < 250, times[-1]


def test_wins_clearly_more_than_random() -> None:
    """20 two-player games, seats alternated: the Wilson interval of the win rate lies above 50 %."""
    results = [play(game) for game in schedule(20, 2, seed=7, size="full")]
    wins = sum(outcome(r) == "win" for r in results)
    _, low, _ = wilson(wins, len(results))
    assert low > 0.5, [outcome(r) for r in results]


@pytest.mark.slow
def test_wins_at_least_80_percent_of_two_player_games() -> None:
    """200 two-player games, seats alternated; a shared first place is not a win."""
    results = [play(game) for game in schedule(200, 2, seed=3, size="full")]
    wins = sum(outcome(r) == "win" for r in results)
    rate, low, high = wilson(wins, len(results))
    assert low >= 0.8, (rate, low, high, Counter(outcome(r) for r in results))


@pytest.mark.skipif(not _cities_plugin_installed(), reason="the Cities plugin is not installed")
def test_every_answer_survives_the_wire() -> None:
    """Requests built by the game's decision table and decoded as a bot server decodes them."""
    from tests.bot_legality import check_every_answer_is_legal

    check_every_answer_is_legal(
        CitiesHeuristicBot(),
        games=4,
        players=lambda game: 2 + game % 3,
        game="cities",
        asks=lambda state, seat: seat == 0 or state.decision != ci.Decision.PLAY,
    )


@pytest.mark.skipif(not _cities_plugin_installed(), reason="the Cities plugin is not installed")
def test_plays_a_real_match(tmp_path: Path) -> None:
    """``python -m bots.cities`` as a launched process, through the referee, against random."""
    from server.launcher import Limits
    from server.referee import RefereeConfig, TimeControl, run_match
    from server.seats import SeatSpec

    root = Path(__file__).resolve().parents[2]
    env = {"PYTHONPATH": str(root)}
    specs = [
        SeatSpec(name="heuristic", command=f"{sys.executable} -m bots.cities", env=env),
        SeatSpec(name="random", command=f"{sys.executable} -m bots.random", env=env),
    ]
    config = RefereeConfig(TimeControl(2000, 20_000), startup_timeout_s=30.0, limits=Limits(memory_mb=None))
    record = run_match(
        games()["cities"], specs, match_id="cities-heuristic", seed=3, config=config, log_dir=tmp_path
    )
    assert record.end_reason == "completed"
    heuristic = record.seats[0]
    assert heuristic.bot == "cities-heuristic 1.0"
    assert (heuristic.strikes, heuristic.forfeited, heuristic.faults) == (0, False, [])
    assert record.scores[0] > record.scores[1]
