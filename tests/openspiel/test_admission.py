"""Admission by test: the admitted list is what ``python -m sdk.games.openspiel.admit`` wrote, the
docs' table of every game is what it writes from that list, and a game failing the run is excluded
with its reason."""

from __future__ import annotations

import io
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from sdk.games.conformance import Check
from sdk.games.openspiel import admit
from sdk.games.openspiel.admitted import DATA, admitted, docs_section, with_docs_section

DOCS = Path(__file__).resolve().parents[2] / "docs" / "openspiel.md"


def test_the_docs_table_is_what_the_admission_command_writes() -> None:
    data = json.loads(DATA.read_text())
    text = DOCS.read_text()
    assert docs_section(data) in text, "run: python -m sdk.games.openspiel.admit --docs"
    assert with_docs_section(text, data) == text
    assert text.count("<!-- games table:") == 1


def test_every_game_is_in_the_table_admitted_or_with_a_reason() -> None:
    import pyspiel

    data = json.loads(DATA.read_text())
    registered = {kind.short_name for kind in pyspiel.registered_games()}
    assert set(data["admitted"]) | set(data["excluded"]) == registered
    assert not set(data["admitted"]) & set(data["excluded"])
    assert all(reason.strip() and "\n" not in reason for reason in data["excluded"].values())
    assert len(admitted()) >= 60


def test_a_game_is_admitted_only_when_every_check_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    log = io.StringIO()
    result = admit.admit_all(["kuhn_poker", "blackjack", "negotiation"], 2, log)
    assert result["admitted"] == {"kuhn_poker": {"players": [2, 10], "params": {}}}
    assert result["excluded"] == {
        "blackjack": "one player only",
        "negotiation": "draws chance inside OpenSpiel, which the referee cannot seed",
    }
    monkeypatch.setattr(admit, "CHECKS", {**admit.CHECKS, "failing": _failing_above(2)})
    limit = "failing fails at 10 players: seat 0 was shown"
    assert admit.admit_all(["kuhn_poker"], 1, log)["admitted"] == {
        "kuhn_poker": {"players": [2], "params": {}, "not_above": limit}
    }
    monkeypatch.setattr(admit, "CHECKS", {**admit.CHECKS, "failing": _failing_above(0)})
    assert admit.admit_all(["kuhn_poker"], 1, log)["excluded"] == {
        "kuhn_poker": "failing fails at 2 players: seat 0 was shown"
    }
    monkeypatch.setattr(admit, "TIME_LIMIT", 0.0)
    assert admit.admit_all(["tic_tac_toe"], 1, log)["excluded"] == {
        "tic_tac_toe": "too slow for the admission run"
    }


def test_a_game_out_of_time_keeps_the_table_sizes_it_passed_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_above_2(plugin: object, seed: int, players: int, params: object) -> None:
        if players > 2:
            time.sleep(60)

    monkeypatch.setattr(admit, "CHECKS", {"slow": slow_above_2, **admit.CHECKS})
    monkeypatch.setattr(admit, "TIME_LIMIT", 8.0)
    assert admit.admit_all(["kuhn_poker"], 1, io.StringIO())["admitted"] == {
        "kuhn_poker": {
            "players": [2],
            "params": {},
            "not_above": "too slow for the admission run above 2 players",
        }
    }


def _failing_above(seats: int) -> Check:
    """A check that fails at more than ``seats`` players."""

    def failing(plugin: object, seed: int, players: int, params: object) -> None:
        if players > seats:
            raise AssertionError("seat 0 was shown")

    return failing


def test_checking_named_games_again_replaces_only_their_entries() -> None:
    kept: dict[str, Any] = {"players": [2], "params": {}}
    checked: dict[str, Any] = {"players": [2, 4], "params": {}}
    old: dict[str, Any] = {"admitted": {"a": kept}, "excluded": {"b": "too slow for the admission run"}}
    new: dict[str, Any] = {"admitted": {"b": checked}, "excluded": {}}
    assert admit.merged(old, new) == {"admitted": {"a": kept, "b": checked}, "excluded": {}}


def test_a_game_openspiel_warns_about_at_every_load_is_excluded_saying_so(
    capfd: pytest.CaptureFixture[str],
) -> None:
    reason = admit.precheck("quoridor")
    assert reason is not None and reason.startswith("OpenSpiel warns whenever it is loaded: Warning!")
    assert "known issues" in reason
    assert capfd.readouterr().err == "", "the warning is caught, not printed"
    assert admit.precheck("tic_tac_toe") is None


def test_a_redraw_keeps_whether_the_seat_is_asked_where_the_string_does_not_say() -> None:
    from sdk.games import conformance
    from sdk.games.registry import get_game

    plugin = get_game("openspiel:phantom_ttt")  # an unseen retry leaves whose turn it is out of the string
    conformance.check_secrecy(plugin, 2, 2, plugin.normalize_params({}))


def test_a_redraw_keeps_whether_the_game_is_over_where_the_string_does_not_say() -> None:
    """In phantom tic-tac-toe the opponent's unseen cells can be redrawn into a winning line: the
    seat's string is unchanged, but a seat always learns that its game has ended."""
    from sdk.games.registry import get_game

    plugin = get_game("openspiel:phantom_ttt_ir")
    redraws = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = plugin.new_state(2, {})
        while not state.is_terminal():
            for seat in range(2):
                for _ in range(3):
                    assert not plugin.resample_hidden(state, seat, rng).is_terminal(), f"seed {seed}"
                    redraws += 1
            state.apply(plugin.random_action(plugin.observe(state, state.current_player), rng))
    assert redraws >= 300
