"""OpenSpiel games through the adapter, checked against pyspiel itself: names and parameters,
the referee's chance, legality before ``apply_action``, simultaneous moves, JSON, secrecy."""

from __future__ import annotations

import dataclasses
import random
import sys
from typing import Any

import pyspiel
import pytest

from sdk.games import conformance
from sdk.games.errors import IllegalActionError
from sdk.games.openspiel import Action, State
from sdk.games.openspiel import plugin as adapter
from sdk.games.openspiel.admitted import admitted
from sdk.games.openspiel.crosscheck import check_against_openspiel
from sdk.games.openspiel.loader import INSTALL_HINT
from sdk.games.plugin import GamePlugin
from sdk.games.registry import get_game, listed_games


def _new(plugin: GamePlugin, players: int, params: dict[str, Any]) -> State:
    state = plugin.new_state(players, params)
    assert isinstance(state, State)
    return state


def _random_game(plugin: GamePlugin, seed: int, params: dict[str, Any] | None = None) -> State:
    rng = random.Random(seed)
    state = _new(plugin, plugin.min_players, params or {})
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(plugin.random_action(plugin.observe(state, state.current_player), rng))
    return state


def test_an_openspiel_game_is_named_with_the_prefix_and_the_admitted_ones_are_listed() -> None:
    plugin = get_game("openspiel:kuhn_poker")
    assert plugin.name == "openspiel:kuhn_poker"
    assert (plugin.min_players, plugin.max_players) == (2, 10)  # the table sizes its admission passed
    assert get_game("openspiel:leduc_poker").max_players == 10  # split pots' fractional returns are scores
    assert {f"openspiel:{name}" for name in admitted()} <= set(listed_games())
    assert "openspiel:blackjack" not in listed_games()  # one player only: not admitted


def test_an_unknown_game_or_family_is_one_line() -> None:
    with pytest.raises(KeyError, match="unknown OpenSpiel game 'nonesuch'"):
        get_game("openspiel:nonesuch")
    with pytest.raises(KeyError, match="unknown game family 'elsewhere'"):
        get_game("elsewhere:chess")


def test_a_game_drawing_its_own_chance_is_refused() -> None:
    with pytest.raises(KeyError, match="draws chance inside OpenSpiel"):
        get_game("openspiel:negotiation")


def test_without_openspiel_installed_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # what `import pyspiel` meets when absent
    adapter._plugin.cache_clear()
    try:
        with pytest.raises(KeyError) as caught:
            get_game("openspiel:kuhn_poker")
        assert caught.value.args[0] == INSTALL_HINT == str(caught.value)
        assert "pip install -e '.[openspiel]'" in INSTALL_HINT
        assert adapter.FAMILY.listed() == {}
    finally:
        adapter._plugin.cache_clear()


def test_parameters_go_to_load_game_and_a_wrong_one_is_one_clear_error() -> None:
    plugin = get_game("openspiel:goofspiel")
    assert plugin.normalize_params({"num_cards": 5})["num_cards"] == 5
    with pytest.raises(ValueError, match=r"^openspiel:goofspiel: Unknown parameter 'cards'") as caught:
        plugin.normalize_params({"cards": 5})
    assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="must be a number, a string or a boolean"):
        plugin.normalize_params({"num_cards": [5]})


def test_players_come_from_the_game_and_its_players_parameter() -> None:
    plugin = get_game("openspiel:kuhn_poker")
    assert len(plugin.new_state(3, {}).scores()) == 3
    with pytest.raises(ValueError, match="is for 2 players, not 3"):
        get_game("openspiel:tic_tac_toe").new_state(3, {})


def test_an_illegal_action_is_refused_before_openspiel_sees_it_and_changes_nothing() -> None:
    plugin = get_game("openspiel:leduc_poker")  # whose apply_action takes illegal ids
    state = _new(plugin, 2, {})
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    before, text = state.to_json(), str(state.spiel)
    illegal = next(a for a in range(plugin_actions(state)) if a not in state.spiel.legal_actions())
    with pytest.raises(IllegalActionError, match="legal actions: action") as caught:
        state.apply(Action(illegal))
    assert caught.value.rule == "legal actions"
    assert state.to_json() == before and str(state.spiel) == text


def plugin_actions(state: State) -> int:
    return int(state.loaded.game.num_distinct_actions())


def test_chance_is_the_referees_stream_so_a_seed_gives_the_same_game() -> None:
    plugin = get_game("openspiel:leduc_poker")
    histories = {str(_random_game(plugin, 7).to_json()["history"]) for _ in range(3)}
    assert len(histories) == 1
    assert len({str(_random_game(plugin, seed).to_json()["history"]) for seed in range(8)}) > 1


def test_simultaneous_moves_ask_every_seat_and_show_no_one_the_others_choice() -> None:
    plugin = get_game("openspiel:goofspiel")
    state = _new(plugin, 2, {"num_cards": 4, "imp_info": True, "points_order": "descending"})
    assert plugin.deciding_seats(state) == (0, 1)
    seen_by_1 = plugin.observe(state, 1)
    state.apply(Action(3))
    assert plugin.deciding_seats(state) == (1,) and state.current_player == 1
    assert plugin.observe(state, 1) == seen_by_1
    state.apply(Action(0))
    assert plugin.deciding_seats(state) == (0, 1)
    assert [(s.player, s.action) for s in state.spiel.full_history()] == [(0, 3), (1, 0)]


CROSS_CHECKED = ("kuhn_poker", "leduc_poker", "tic_tac_toe", "goofspiel", "liars_dice", "connect_four")


@pytest.mark.parametrize("name", CROSS_CHECKED)
def test_json_round_trips_and_re_simulates_to_the_same_state(name: str) -> None:
    plugin = get_game(f"openspiel:{name}")
    state = _random_game(plugin, 3)
    copy = plugin.state_from_json(state.to_json())
    assert isinstance(copy, State)
    assert copy.to_json() == state.to_json() and str(copy.spiel) == str(state.spiel)
    assert copy.scores() == state.scores()


#: The sample in the default run, every other admitted game under ``slow``.
EVERY_ADMITTED = [
    *CROSS_CHECKED,
    *(pytest.param(name, marks=pytest.mark.slow) for name in sorted(admitted()) if name not in CROSS_CHECKED),
]


@pytest.mark.parametrize("name", EVERY_ADMITTED)
@pytest.mark.parametrize("seed", range(3))
def test_the_adapter_ends_where_openspiel_itself_ends(name: str, seed: int) -> None:
    plugin = get_game(f"openspiel:{name}")
    check_against_openspiel(plugin, seed, plugin.min_players, {})


def test_the_cross_check_catches_a_state_openspiel_would_not_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: an adapter that dropped a step from its record would end elsewhere."""
    plugin = get_game("openspiel:tic_tac_toe")
    honest = State.to_json
    monkeypatch.setattr(
        State, "to_json", lambda self: {**honest(self), "history": honest(self)["history"][:-1]}
    )
    with pytest.raises(AssertionError):
        check_against_openspiel(plugin, 0, 2, {})


def test_the_spectator_names_each_past_move_at_the_position_it_was_made_from() -> None:
    """Chess names a move by its piece: naming past moves from the current board failed."""
    plugin = get_game("openspiel:chess")
    state = _new(plugin, 2, {})
    rng = random.Random(1)
    for _ in range(12):
        state.apply(plugin.random_action(plugin.observe(state, state.current_player), rng))
    replay = pyspiel.load_game("chess").new_initial_state()
    names = []
    for action in state.spiel.history():
        names.append(replay.action_to_string(replay.current_player(), action))
        replay.apply_action(action)
    assert plugin.spectator_view(state)["history"] == names


def test_the_spectator_is_not_told_how_many_steps_a_hidden_game_took() -> None:
    """In phantom tic-tac-toe a move into a cell the mover could not see is retried unseen: a turn
    count would tell everyone how many tries there were."""
    plugin = get_game("openspiel:phantom_ttt")
    direct, retried = _new(plugin, 2, {}), _new(plugin, 2, {})
    for state, cells in ((direct, [4, 0]), (retried, [4, 4, 0])):
        for cell in cells:
            state.apply(state.step_of(cell))
    assert direct.current_player == retried.current_player == 0
    assert retried.spiel.move_number() > direct.spiel.move_number()
    assert plugin.spectator_view(retried) == plugin.spectator_view(direct)
    assert "turn" not in plugin.spectator_view(direct)
    open_game = get_game("openspiel:tic_tac_toe")
    assert open_game.spectator_view(_new(open_game, 2, {}))["turn"] == 1


def test_a_game_reporting_its_inner_games_parameters_round_trips_through_json() -> None:
    """liars_dice_ir reports liars_dice's rollout_length too, which loading it again refused."""
    plugin = get_game("openspiel:liars_dice_ir")
    state = _random_game(plugin, 2)
    assert plugin.state_from_json(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize("name", ["euchre", "hearts"])
def test_where_openspiels_redraw_does_not_replay_the_redraw_by_replay_is_checked(name: str) -> None:
    """Their resample_from_infostate gives histories our legality check refuses: redrawn by replay."""
    plugin = get_game(f"openspiel:{name}")
    conformance.check_secrecy(plugin, 0, 4, {})


def test_where_openspiel_cannot_redraw_the_secrecy_check_still_catches_a_leak(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """liars_dice has no resample_from_infostate: states with the seat's information-state string
    equal must give it equal requests, so a request showing the whole state (the other's dice) fails."""
    plugin = get_game("openspiel:liars_dice")
    conformance.check_secrecy(plugin, 0, 2, {})
    honest = plugin.observe

    def leaking(state: Any, seat: int) -> Any:
        return dataclasses.replace(honest(state, seat), observation_string=str(state.spiel))

    monkeypatch.setattr(plugin, "observe", leaking)
    with pytest.raises(AssertionError):
        conformance.check_secrecy(plugin, 0, 2, {})
