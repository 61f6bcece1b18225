"""One conformance suite for every installed game, in the manner of OpenSpiel's random-simulation
test and PettingZoo's API test: random play to the end, JSON round trips at every step, clone
independence, illegal steps refused with their rule named and the state unchanged, re-simulation
from the recorded steps, every declared decision kind's codecs, and the secrecy property: a state
that differs only in what seat p cannot see gives p the same observation and the same request."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sdk.games import conformance
from sdk.games.plugin import GamePlugin
from sdk.games.registry import get_game

from .example_install import installed_games_with_example, more_listed_games

GAMES = installed_games_with_example()
PARAMS = [*GAMES, *(pytest.param(name, marks=pytest.mark.slow) for name in more_listed_games())]
SEEDS = range(4)


def _players(plugin: GamePlugin, seed: int) -> int:
    return conformance.players_for(plugin, seed)


def _walk(plugin: GamePlugin, seed: int) -> Any:
    return conformance.walk(plugin, seed, _players(plugin, seed), {})


def _check(check: conformance.Check, plugin: GamePlugin, seed: int) -> None:
    check(plugin, seed, _players(plugin, seed), {})


@pytest.fixture(params=PARAMS)
def plugin(request: pytest.FixtureRequest) -> GamePlugin:
    return get_game(request.param)


def test_every_example_and_real_game_is_installed() -> None:
    assert "blind_auction" in GAMES and len(GAMES) >= 2


@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_reaches_the_end_with_a_result(plugin: GamePlugin, seed: int) -> None:
    _check(conformance.check_random_play, plugin, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_json_round_trips_at_every_step(plugin: GamePlugin, seed: int) -> None:
    _check(conformance.check_json_round_trips, plugin, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_clone_is_independent(plugin: GamePlugin, seed: int) -> None:
    _check(conformance.check_clone_independent, plugin, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_illegal_steps_are_refused_naming_the_rule_and_change_nothing(plugin: GamePlugin, seed: int) -> None:
    """A step of another kind than the one awaited, one legal earlier but not now, or any step once
    the game is over, is refused."""
    _check(conformance.check_illegal_refused, plugin, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_recorded_steps_re_simulate_the_game(plugin: GamePlugin, seed: int) -> None:
    _check(conformance.check_resimulation, plugin, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_decision_crosses_the_wire_and_back(plugin: GamePlugin, seed: int) -> None:
    """Requests from observations, decoded as a bot would; replies encoded and decoded to the same action."""
    _check(conformance.check_wire, plugin, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_secrecy_a_seat_cannot_tell_states_that_differ_in_what_it_may_not_see(
    plugin: GamePlugin, seed: int
) -> None:
    _check(conformance.check_secrecy, plugin, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_seats_asked_together_can_all_answer_from_the_same_position(plugin: GamePlugin, seed: int) -> None:
    """Simultaneous decisions: every seat of a group is asked from the group's first position; what
    it works out from that request is legal when the engine reaches it, whatever the seats before it
    chose, and the kind asked is the kind due."""
    _check(conformance.check_simultaneous, plugin, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seat_sees_nothing_of_decisions_it_does_not_learn_of(plugin: GamePlugin, seed: int) -> None:
    """Every seat at every moment, not only the deciding one: while others are asked in turn about
    something hidden from it (who is asked included), its observation stays as it was."""
    _check(conformance.check_unseen_decisions, plugin, seed)


def _unseen(plugin: GamePlugin, seed: int) -> Any:
    return conformance.unseen_decisions(plugin, seed, _players(plugin, seed), {})


def test_the_unseen_decisions_property_has_cases_to_check() -> None:
    """Its first case: seats asked one after another whether to reveal protection (Cities, C12)."""
    assert sum(1 for name in GAMES for seed in SEEDS for _ in _unseen(get_game(name), seed)) > 0


def test_the_example_game_asks_its_bids_together() -> None:
    """The property above has something to check: blind bids are simultaneous decisions."""
    plugin = get_game("blind_auction")
    groups = [
        plugin.deciding_seats(state)
        for state, _ in _walk(plugin, 1)
        if not state.is_chance_node() and plugin.decision_kind(state) == "bid"
    ]
    assert any(len(group) == _players(plugin, 1) for group in groups)


def test_the_secrecy_check_catches_a_leak() -> None:
    """The property has teeth: an observation that showed another seat's pending bid would fail it."""
    plugin = get_game("blind_auction")
    rng = random.Random(3)
    leaks = 0
    for state, _ in _walk(plugin, 3):
        if state.is_chance_node():
            continue
        for seat in range(len(state.scores())):
            twin = plugin.resample_hidden(state, seat, rng)
            if twin.to_json()["bids"] != state.to_json()["bids"]:
                leaks += 1  # a view including everyone's bids would now differ
    assert leaks > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_the_spectator_view_holds_only_what_every_seat_may_know(plugin: GamePlugin, seed: int) -> None:
    """A match in progress is shown to the public as a spectator sees it: no hand, deck order, hidden
    card or pending choice, so it stays the same whatever any seat's secrets are."""
    _check(conformance.check_spectator_view, plugin, seed)


def test_the_spectator_view_check_catches_a_leak() -> None:
    """The property has teeth: a spectator shown the organiser's view would see redrawn hands change."""
    plugin = get_game("blind_auction")
    rng = random.Random(5)
    leaks = sum(
        plugin.view(plugin.resample_hidden(state, seat, rng), None) != plugin.view(state, None)
        for number, (state, _) in enumerate(_walk(plugin, 5))
        for seat in range(len(state.scores()))
        if number % 3 == 0
    )
    assert leaks > 0


def test_a_spectator_is_shown_the_public_part_of_the_position() -> None:
    """The default spectator view keeps what every seat is shown alike, not just nothing."""
    plugin = get_game("blind_auction")
    state = plugin.new_state(2, {})
    shown = plugin.spectator_view(state)
    assert shown["scores"] == [0, 0] and shown["hands"] == [None, None]
