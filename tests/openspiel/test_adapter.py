"""OpenSpiel games through the adapter, checked against pyspiel itself: names and parameters,
the referee's chance, legality before ``apply_action``, simultaneous moves, JSON, secrecy."""

from __future__ import annotations

import random
import sys
from typing import Any

import pyspiel
import pytest

from sdk.games.errors import IllegalActionError
from sdk.games.openspiel import Action, State
from sdk.games.openspiel import plugin as adapter
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


def test_an_openspiel_game_is_named_with_the_prefix_and_the_sample_is_listed() -> None:
    plugin = get_game("openspiel:kuhn_poker")
    assert plugin.name == "openspiel:kuhn_poker"
    assert (plugin.min_players, plugin.max_players) == (2, 10)
    assert get_game("openspiel:leduc_poker").max_players == 2
    assert {f"openspiel:{name}" for name in adapter.SAMPLE} <= set(listed_games())


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


@pytest.mark.parametrize("name", sorted(adapter.CROSS_CHECKED))
def test_json_round_trips_and_re_simulates_to_the_same_state(name: str) -> None:
    plugin = get_game(f"openspiel:{name}")
    state = _random_game(plugin, 3)
    copy = plugin.state_from_json(state.to_json())
    assert isinstance(copy, State)
    assert copy.to_json() == state.to_json() and str(copy.spiel) == str(state.spiel)
    assert copy.scores() == state.scores()


def _direct(name: str, params: dict[str, Any], steps: list[int]) -> Any:
    """``steps`` applied to pyspiel directly (joint actions at simultaneous nodes)."""
    state = pyspiel.load_game(name, params).new_initial_state()
    queue = list(steps)
    while queue:
        if state.is_simultaneous_node():
            state.apply_actions([queue.pop(0) for _ in range(state.num_players())])
        else:
            state.apply_action(queue.pop(0))
    return state


@pytest.mark.parametrize("name", sorted(adapter.CROSS_CHECKED))
@pytest.mark.parametrize("seed", range(3))
def test_the_adapter_ends_where_openspiel_itself_ends(name: str, seed: int) -> None:
    plugin = get_game(f"openspiel:{name}")
    state = _random_game(plugin, seed)
    params = plugin.normalize_params({})
    direct = _direct(name, params, state.to_json()["history"])
    assert direct.is_terminal()
    assert direct.history() == state.spiel.history() and str(direct) == str(state.spiel)
    assert direct.returns() == state.scores()
    assert state.ranks() == [1 + sum(other > mine for other in direct.returns()) for mine in direct.returns()]
