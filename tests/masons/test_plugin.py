"""Masons as an installed game: the contract, what each seat is shown, safe defaults, a real match
between bot processes, and the command line (games, run, replay, verify)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sdk.games.decisions import DecisionContext
from sdk.games.masons.actions import Connect, FinalScore, Swap
from sdk.games.masons.plugin import PLUGIN
from sdk.games.masons.state import State
from sdk.games.registry import games, get_game
from server.cli import app
from server.resimulate import resimulate
from server.tournament.bracket import load_bracket

from ..server.conftest import ROOT, launched
from .positions import scoring_example
from .walk import walk

RUNNER = CliRunner()


def test_masons_is_installed_with_its_declared_contract() -> None:
    assert get_game("masons") is PLUGIN and "masons" in games()
    assert (PLUGIN.name, PLUGIN.title, PLUGIN.min_players, PLUGIN.max_players) == ("masons", "Masons", 2, 4)
    assert PLUGIN.decisions.kinds == (
        "wall", "towers", "houses", "connect_city", "score_cards", "swap", "final_score",
    )  # fmt: skip
    assert PLUGIN.web_script.is_file()
    with pytest.raises(ValueError, match="unknown parameter"):
        PLUGIN.normalize_params({"size": 3})


def test_the_engine_package_imports_none_of_the_plugin() -> None:
    root = Path(__file__).resolve().parents[2] / "sdk" / "games" / "masons"
    engine = [
        "board",
        "cards",
        "actions",
        "state",
        "rules",
        "pieces",
        "enclosure",
        "scoring",
        "observation",
        "hidden",
    ]
    for name in engine:
        text = (root / f"{name}.py").read_text()
        assert not re.search(r"^(from|import) (grpc|google|sdk\.protocol|server)", text, re.MULTILINE), name


def test_the_demo_bracket_is_valid() -> None:
    bracket = load_bracket(ROOT / "tournaments" / "masons.yaml")
    assert bracket.game == "masons" and bracket.players == 4
    assert [e.command for e in bracket.entrants][:1] == ["python -m bots.masons"]


def test_a_seat_is_shown_only_its_own_hand() -> None:
    state = scoring_example()
    organiser = PLUGIN.view(state)
    assert all(seat["hand"] is not None for seat in organiser["seats"])
    for seat in range(4):
        shown = PLUGIN.view(state, seat)
        assert [s["hand"] is not None for s in shown["seats"]] == [s == seat for s in range(4)]
        text = PLUGIN.render(state, seat)
        assert text.count("hand: ") == 4 and text.count(" cards") >= 3


def test_a_shuffle_s_order_is_told_to_the_organiser_only() -> None:
    state, step = next(walk(1, 2))
    assert "top:" in (PLUGIN.describe(state, step) or "")
    assert "top:" not in (PLUGIN.describe(state, step, 0) or "")


def test_the_safe_default_keeps_the_hand_joins_nothing_and_passes() -> None:
    seen = set()
    for state, _ in walk(3, 4):
        if state.is_chance_node():
            continue
        default = PLUGIN.default_action(state)
        assert default in state.legal_actions()
        kind = PLUGIN.decision_kind(state)
        seen.add(kind)
        if kind == "swap":
            assert default == Swap(())
        if kind == "connect_city":
            assert default == Connect(None)
        if kind == "final_score":
            assert default == FinalScore(None, ())
    assert {"wall", "score_cards"} <= seen


def test_random_actions_from_the_wire_are_legal() -> None:
    counts = [0] * 3
    for state, _ in walk(11, 3):
        if state.is_chance_node():
            continue
        seat = state.current_player
        counts[seat] += 1
        spec = PLUGIN.decisions[PLUGIN.decision_kind(state)]
        context = DecisionContext("m", counts[seat], seat, 1000, 1000, "masons")
        request = spec.request_type.FromString(
            spec.encode_request(PLUGIN.observe(state, seat), context).SerializeToString()
        )
        action = PLUGIN.random_action(spec.decode_request(request), random.Random(counts[seat]))
        assert action in state.legal_actions()


def test_a_match_between_bot_processes_re_simulates(tmp_path: Path) -> None:
    from server.launcher import Limits
    from server.referee import RefereeConfig, TimeControl, run_match

    specs = [launched("greedy", "bots.masons"), launched("random", "bots.random")]
    config = RefereeConfig(TimeControl(5000, 30_000), startup_timeout_s=20.0, limits=Limits(memory_mb=None))
    record = run_match(
        PLUGIN, specs, match_id="masons-match", seed=5, config=config, log_dir=tmp_path, params={}
    )
    decisions = [s for s in record.steps if s.kind != "chance"]
    assert decisions and all(s.source == "bot" and s.strike is None for s in decisions)
    final = resimulate(record)
    assert isinstance(final, State) and final.is_terminal()
    assert final.scores() == record.scores and record.summary == PLUGIN.summary(final)


BRACKET = """\
name: masons-cli
game: masons
players: 3
rounds: 1
seed: 17
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 2
entrants:
  - {name: greedy, command: python -m bots.masons}
  - {name: random-b, command: python -m bots.random}
  - {name: random-c, command: python -m bots.random}
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    bracket = tmp_path_factory.mktemp("masons-cli") / "masons-cli.yaml"
    bracket.write_text(BRACKET)
    result = RUNNER.invoke(app, ["run", str(bracket)])
    assert result.exit_code == 0, result.output
    return bracket.with_suffix(".db")


def test_smtourney_games_lists_masons() -> None:
    result = RUNNER.invoke(app, ["games", "--json"])
    listed = {game["name"]: game for game in json.loads(result.output)}
    assert listed["masons"]["service"] == "smtourney.masons.v1.Masons"
    assert [d["kind"] for d in listed["masons"]["decisions"]] == list(PLUGIN.decisions.kinds)


def test_replay_shows_every_hand_to_the_organiser_and_a_seat_only_its_own(played: Path) -> None:
    everyone = RUNNER.invoke(app, ["replay", "--db", str(played), "r1-t000-s0"])
    assert everyone.exit_code == 0 and "Traceback" not in everyone.output
    assert "top:" in everyone.output
    for seat in range(3):
        seen = RUNNER.invoke(app, ["replay", "--db", str(played), "r1-t000-s0", "--seat", str(seat)])
        assert seen.exit_code == 0, seen.output
        assert "top:" not in seen.output
        hands = set(re.findall(r"^[ >]seat (\d): \d+ points; hand: (?!\d+ cards)", seen.output, re.MULTILINE))
        assert hands == {str(seat)}


def test_verify_re_simulates_every_match(played: Path) -> None:
    result = RUNNER.invoke(app, ["verify", "--db", str(played)])
    assert result.exit_code == 0, result.output
    assert "3 matches checked, 3 ok, 0 failed" in result.output
