"""The engine-throughput and storage benchmarks take any installed game, the example game included
(it has no ``sample_action`` nor ``apply_unchecked``, and no bracket in ``tournaments/``)."""

from __future__ import annotations

import pytest

from benchmarks import engine_throughput, storage
from sdk.games.registry import get_game

from .example_install import installed_games_with_example


@pytest.mark.parametrize("name", installed_games_with_example())
def test_engine_throughput_plays_any_installed_game(name: str) -> None:
    players = get_game(name).min_players
    for checked in (True, False):
        figures = engine_throughput.run(name, games=2, players=players, seed=1, checked=checked)
        assert figures["decisions_per_game"] > 0


@pytest.mark.parametrize("name", installed_games_with_example())
def test_storage_has_a_bracket_for_any_installed_game(name: str) -> None:
    bracket, command = storage.cases(name)[name]
    assert command is None and bracket["game"] == name and bracket["entrants"]
    assert len(bracket["entrants"]) >= get_game(name).min_players


def test_a_game_without_a_bracket_of_its_own_is_measured_from_its_demonstration_seats() -> None:
    bracket = storage.example_bracket("blind_auction")
    seats = get_game("blind_auction").demo_seats
    assert [entrant["command"] for entrant in bracket["entrants"]] == list(seats)
    assert bracket["players"] == len(seats)
