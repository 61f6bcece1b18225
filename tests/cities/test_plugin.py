"""Cities as an installed game: the plugin's contract, secrecy of what it shows each seat, its safe
defaults, a real match between bot processes, and the command line (games, run, replay, verify)."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sdk.games import cities as ci
from sdk.games.cities.bot import CitiesBot
from sdk.games.cities.defaults import default_action
from sdk.games.cities.plugin import PLUGIN
from sdk.games.decisions import DecisionContext
from sdk.games.registry import games, get_game
from server.cli import app
from server.resimulate import resimulate
from server.tournament.bracket import load_bracket

from ..server.conftest import ROOT, launched

E = ci.EventType
D = ci.Decision
RUNNER = CliRunner()


def walk(seed: int, players: int) -> Iterator[tuple[ci.State, ci.Step]]:
    """A random game: each state with the step about to be applied to it."""
    return walk_into(ci.new_game(players), seed)


def walk_into(state: ci.State, seed: int) -> Iterator[tuple[ci.State, ci.Step]]:
    """Play ``state`` to its end at random, yielding it with the step about to be applied."""
    rng = random.Random(seed)
    while not state.is_terminal():
        step = state.sample_chance(rng) if state.is_chance_node() else state.sample_action(rng)
        yield state, step
        state.apply(step)


# --- the plugin ----------------------------------------------------------------------------------------


def test_cities_is_installed_with_its_declared_contract() -> None:
    assert get_game("cities") is PLUGIN and "cities" in games()
    assert (PLUGIN.name, PLUGIN.title, PLUGIN.min_players, PLUGIN.max_players) == ("cities", "Cities", 2, 6)
    assert PLUGIN.decisions.kinds == ("draw", "play", "react", "exchange", "give_city", "give_event")
    assert [spec.rpc for spec in PLUGIN.decisions] == [
        "Draw",
        "Play",
        "React",
        "Exchange",
        "GiveCity",
        "GiveEvent",
    ]
    assert PLUGIN.decisions.service_name == "smtourney.cities.v1.Cities"
    assert PLUGIN.chance_stream == "shuffles"
    assert [p.name for p in PLUGIN.parameters] == ["size", "max_rounds"]
    assert PLUGIN.normalize_params({}) == {"size": "full", "max_rounds": 60}
    assert PLUGIN.normalize_params({"size": "fast"}) == {"size": "fast", "max_rounds": 60}
    with pytest.raises(ValueError, match="cannons"):
        PLUGIN.normalize_params({"cannons": 3})
    script = PLUGIN.web_script.read_text(encoding="utf-8")
    assert 'registerGame("cities"' in script
    assert PLUGIN.demo_seats[0] == "python -m bots.cities" and len(PLUGIN.demo_seats) == 4


def test_the_engine_package_imports_none_of_the_plugin() -> None:
    probe = "import json, sys, sdk.games.cities; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert not loaded & {"sdk.games.cities.wire", "sdk.games.cities.plugin", "sdk.games.cities.bot"}
    assert not {m for m in loaded if m.startswith(("google", "grpc"))}


def test_the_demo_bracket_is_valid() -> None:
    bracket = load_bracket(ROOT / "tournaments" / "cities.yaml")
    assert bracket.game == "cities" and bracket.players == 4
    assert [e.command for e in bracket.entrants][:1] == ["python -m bots.cities"]


def test_turns_start_at_one_and_never_go_back() -> None:
    turns = [PLUGIN.turn(state) for state, _ in walk(4, 4)]
    assert turns[0] == 1 and turns == sorted(turns)


def test_the_summary_says_how_the_game_ended() -> None:
    state = ci.new_game(3)
    for _ in walk_into(state, 9):
        pass
    assert state.is_terminal()
    summary = PLUGIN.summary(state)
    assert json.loads(json.dumps(summary)) == summary
    assert summary["rounds"] == state.round and summary["turns"] == state.turn
    assert summary["events_played"] == len(state.log)
    assert [
        len(done) + (5 if summary["wonders_bonus"] == seat else 0)
        for seat, done in enumerate(summary["completed"])
    ] == state.scores()


# --- secrecy of the views, texts and descriptions --------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_a_seat_is_shown_nothing_it_may_not_know(seed: int) -> None:
    """View, text and step descriptions for a seat are the same in any state it cannot tell apart."""
    players = 2 + seed
    rng = random.Random(seed)
    for number, (state, step) in enumerate(walk(100 + seed, players)):
        if number % 2:
            continue
        for seat in range(players):
            twin = state.resample_hidden(seat, rng)
            assert PLUGIN.view(twin, seat) == PLUGIN.view(state, seat)
            assert PLUGIN.render(twin, seat) == PLUGIN.render(state, seat)
            assert PLUGIN.describe(twin, step, seat) == PLUGIN.describe(state, step, seat)


def test_the_organiser_sees_every_hand_and_a_seat_only_its_own() -> None:
    checked = 0
    for state, _ in walk(21, 4):
        if state.is_chance_node():
            continue
        everyone = PLUGIN.view(state)
        assert [s["hand_size"] for s in everyone["seats"]] == state.hand_sizes
        assert all(sum(c["count"] for c in s["hand"]) == s["hand_size"] for s in everyone["seats"])
        for seat in range(4):
            mine = PLUGIN.view(state, seat)
            for shown in mine["seats"]:
                assert shown["hand_size"] == state.hand_sizes[shown["seat"]]
                assert (shown["hand"] is None) == (shown["seat"] != seat)
                assert (shown["face_down_cards"] is None) == (shown["seat"] != seat)
            checked += 1
    assert checked > 100


def _steps_of(kind: type, seeds: range) -> Iterator[tuple[ci.State, Any]]:
    for seed in seeds:
        for state, step in walk(seed, 4):
            if isinstance(step, kind):
                yield state, step


def test_what_others_learn_of_secret_steps() -> None:
    declined = next((s, a) for s, a in _steps_of(ci.React, range(200)) if a.card is None)
    state, step = declined
    asked = state.current_player
    assert PLUGIN.describe(state, step) == PLUGIN.describe(state, step, asked) == "reveals no protection"
    assert all(PLUGIN.describe(state, step, seat) is None for seat in range(4) if seat != asked)

    state, step = next(_steps_of(ci.GiveEvent, range(200)))
    giver = state.current_player
    name = step.event.display_name
    assert PLUGIN.describe(state, step, giver) == PLUGIN.describe(state, step) == f"discards {name} face down"
    for seat in set(range(4)) - {giver}:
        assert PLUGIN.describe(state, step, seat) == "discards an event face down"

    state, step = next(_steps_of(ci.Shuffle, range(1)))
    assert PLUGIN.describe(state, step, 0) == "the city deck is shuffled"
    assert ci.CITIES[step.order[0]].name in (PLUGIN.describe(state, step) or "")

    state, step = next(
        (s, a) for s, a in _steps_of(ci.Play, range(400)) if a.education == ci.EducationMode.EXCHANGE
    )
    player = state.current_player
    returned = len(step.returns)
    other = (player + 1) % 4
    assert (
        PLUGIN.describe(state, step, other)
        == f"plays Education, giving back {returned} event{'s' * (returned > 1)}"
    )
    assert all(ev.display_name in (PLUGIN.describe(state, step, player) or "") for ev in step.returns)


# --- safe defaults and random actions ----------------------------------------------------------------------


def test_the_safe_default_is_the_mildest_legal_answer() -> None:
    expected = {
        D.DRAW: ci.Draw(ci.Deck.CITY),
        D.PLAY: ci.Pass(),
        D.REACT: ci.React(None),
        D.EXCHANGE: ci.Exchange(False),
    }
    seen: set[D] = set()
    for seed in range(150):
        for state, _ in walk(seed, 2 + seed % 5):
            if state.is_chance_node():
                continue
            decision = state.decision
            assert decision is not None
            action = default_action(state)
            assert action == default_action(state.clone()) and action in state.legal_actions()
            if decision in expected:
                assert action == expected[decision]
            elif decision == D.GIVE_CITY:
                assert action == min(state.legal_actions(), key=lambda a: a.city)  # type: ignore[union-attr]
            else:
                assert action == min(state.legal_actions(), key=lambda a: a.event)  # type: ignore[union-attr]
            seen.add(decision)
    assert seen == set(D)


def test_random_actions_from_an_observation_are_legal() -> None:
    rng = random.Random(5)
    for state, _ in walk(8, 5):
        if state.is_chance_node():
            continue
        observation = PLUGIN.observe(state, state.current_player)
        for _ in range(3):
            assert PLUGIN.random_action(observation, rng) in state.legal_actions()


class DeterminizingBot(CitiesBot):
    """A bot written as the docs say: a forward model from the observation, a random legal action."""

    name = "determinizing"

    def _any(self, observation: ci.Observation, context: DecisionContext) -> Any:
        rng = random.Random(f"{context.match_id}/{context.seat}/{context.decision_id}")
        return ci.determinize(observation, rng).sample_action(rng)

    draw = play = react = exchange = give_city = give_event = _any


def test_a_bot_class_routes_every_kind_to_its_method() -> None:
    assert PLUGIN.decisions.missing_methods(DeterminizingBot) == []
    assert DeterminizingBot.answers_every_kind(PLUGIN.decisions.kinds)
    bot = DeterminizingBot()
    counts = [0] * 3
    for state, _ in walk(13, 3):
        if state.is_chance_node():
            continue
        seat = state.current_player
        counts[seat] += 1
        spec = PLUGIN.decisions[PLUGIN.decision_kind(state)]
        context = DecisionContext("m", counts[seat], seat, 1000, 1000, "cities")
        request = spec.encode_request(PLUGIN.observe(state, seat), context)
        action = bot.decide(spec.kind, spec.decode_request(request), context)
        assert action in state.legal_actions()


# --- real bots, the referee and the command line -----------------------------------------------------------


def test_a_match_between_bot_processes_re_simulates(tmp_path: Path) -> None:
    from server.launcher import Limits
    from server.referee import RefereeConfig, TimeControl, run_match

    specs = [launched(f"random-{i}", "bots.random") for i in range(3)]
    config = RefereeConfig(TimeControl(2000, 10_000), startup_timeout_s=20.0, limits=Limits(memory_mb=None))
    record = run_match(
        PLUGIN,
        specs,
        match_id="cities-match",
        seed=3,
        config=config,
        log_dir=tmp_path,
        params={"size": "fast"},
    )
    decisions = [s for s in record.steps if s.kind != "chance"]
    assert decisions and all(s.source == "bot" and s.strike is None for s in decisions)
    assert {s.kind for s in decisions} <= set(PLUGIN.decisions.kinds)
    for seat in range(3):
        ids = [s.decision_id for s in decisions if s.seat == seat]
        assert ids == list(range(1, len(ids) + 1))
    final = resimulate(record)
    assert isinstance(final, ci.State) and final.is_terminal()
    assert final.scores() == record.scores and final.ranks() == record.ranks
    assert record.summary == PLUGIN.summary(final)


BRACKET = """\
name: cities-cli
game: cities
players: 3
rounds: 1
seed: 17
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 3
entrants:
  - {name: random-a, command: python -m bots.random}
  - {name: random-b, command: python -m bots.random}
  - {name: random-c, command: python -m bots.random}
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    bracket = tmp_path_factory.mktemp("cities-cli") / "cities-cli.yaml"
    bracket.write_text(BRACKET)
    result = RUNNER.invoke(app, ["run", str(bracket)])
    assert result.exit_code == 0, result.output
    return bracket.with_suffix(".db")


def test_smtourney_games_lists_cities() -> None:
    result = RUNNER.invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    listed = {game["name"]: game for game in json.loads(result.output)}
    cities = listed["cities"]
    assert (cities["title"], cities["min_players"], cities["max_players"]) == ("Cities", 2, 6)
    assert cities["service"] == "smtourney.cities.v1.Cities"
    assert [d["kind"] for d in cities["decisions"]] == list(PLUGIN.decisions.kinds)
    text = RUNNER.invoke(app, ["games"])
    assert "cities — Cities, 2-6 players" in text.output


def _hands_by_seat(text: str) -> dict[int, int]:
    """How many hand listings (cards named) each seat's board lines hold in a replay's text."""
    found: dict[int, int] = {}
    seat = None
    for line in text.splitlines():
        header = re.match(r"^[ >]seat (\d+): score", line)
        if header:
            seat = int(header.group(1))
        elif line.startswith("    hand (") and seat is not None:
            found[seat] = found.get(seat, 0) + 1
    return found


def test_replay_shows_every_hand_to_the_organiser_and_a_seat_only_its_own(played: Path) -> None:
    everyone = RUNNER.invoke(app, ["replay", "--db", str(played), "r1-t000-s0"])
    assert everyone.exit_code == 0, everyone.output
    assert "Traceback" not in everyone.output
    assert set(_hands_by_seat(everyone.output)) == {0, 1, 2}
    assert "deck is shuffled (" in everyone.output
    for seat in range(3):
        seen = RUNNER.invoke(app, ["replay", "--db", str(played), "r1-t000-s0", "--seat", str(seat)])
        assert seen.exit_code == 0, seen.output
        assert set(_hands_by_seat(seen.output)) == {seat}, f"seat {seat} is shown another hand"
        assert "deck is shuffled (" not in seen.output
    as_json = RUNNER.invoke(app, ["replay", "--db", str(played), "r1-t000-s0", "--json", "--seat", "1"])
    replay = json.loads(as_json.output)
    assert replay["viewer_seat"] == 1
    for moment in replay["moments"]:
        assert [s["hand"] is not None for s in moment["view"]["seats"]] == [False, True, False]


def test_every_turn_with_steps_is_printed_though_turns_without_any_are_skipped(played: Path) -> None:
    result = RUNNER.invoke(app, ["replay", "--db", str(played), "r1-t000-s1"])
    assert result.exit_code == 0, result.output
    printed = [int(n) for n in re.findall(r"^turn (\d+)/\d+$", result.output, re.MULTILINE)]
    assert printed == sorted(set(printed)) and printed[0] == 1
    assert any(b - a > 1 for a, b in pairwise(printed))  # some turns had no steps


def test_verify_re_simulates_every_match(played: Path) -> None:
    result = RUNNER.invoke(app, ["verify", "--db", str(played)])
    assert result.exit_code == 0, result.output
    assert "3 matches checked, 3 ok, 0 failed" in result.output
