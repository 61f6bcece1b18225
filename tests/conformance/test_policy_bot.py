"""A policy served as a bot through the referee is served byte for byte what the environment gives.

Seeded matches are played through the real referee (in-process transport) by the served policy in
every seat; the same chance stream and actions are then stepped through :func:`sdk.env.aec_env`,
and at every decision the environment's tensor and mask must equal what the policy received.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sdk.env import aec_env
from sdk.games.decisions import DecisionContext
from sdk.games.plugin import GamePlugin
from sdk.games.registry import get_game
from sdk.games.tensors import tensors_of
from sdk.policy_bot import policy_bot_class
from server.referee import run_match
from server.seats import SeatSpec
from server.seeds import derive_seed

from . import recording_policy
from .example_install import installed_games_with_example

GAMES = installed_games_with_example()
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=GAMES)
def plugin(request: pytest.FixtureRequest) -> GamePlugin:
    plugin = get_game(request.param)
    try:
        tensors_of(plugin)
    except ValueError:
        pytest.skip(f"{plugin.name} declares no tensors")
    return plugin


@pytest.mark.parametrize("seed", range(3))
def test_the_served_policy_receives_the_environments_tensors_and_masks(
    plugin: GamePlugin, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served_class = policy_bot_class(recording_policy.record, plugin.name)
    monkeypatch.setattr(recording_policy, "RecordingBot", recording_policy.recording_bot_class(served_class))
    monkeypatch.setattr(recording_policy, "SERVED", {})
    target = f"{recording_policy.__name__}:RecordingBot"
    seats = [SeatSpec(name=f"policy #{seat}", bot_class=target) for seat in range(plugin.max_players)]
    record = run_match(plugin, seats, match_id=f"served-{seed}", seed=seed, log_dir=tmp_path)
    assert record.end_reason == "completed"
    decisions = [step for step in record.steps if step.seat is not None]
    assert decisions and all(step.source == "bot" for step in decisions), "every answer was the policy's own"
    served = {seat: iter(asked) for seat, asked in recording_policy.SERVED.items()}

    env = aec_env(plugin, plugin.max_players)
    env.reset(seed=derive_seed(seed, plugin.chance_stream))
    actions = tensors_of(plugin).actions
    for step in decisions:
        assert step.seat is not None
        agent = env.possible_agents[step.seat]
        in_parts = env.table.tensors.in_parts(env.table.observation(step.seat))
        while True:  # once, or part by part for a decision taken in parts
            assert env.agent_selection == agent
            given = env.observe(agent)
            tensor, mask, answer = next(served[step.seat])
            assert (given["observation"].tobytes(), given["action_mask"].tobytes()) == (tensor, mask)
            env.step(answer if in_parts else actions.index(plugin.step_from_json(step.step)))
            if not env.table.chosen:
                break
    assert env.table.over
    assert all(next(asked, None) is None for asked in served.values()), "nothing served beyond the match"


def test_an_index_outside_the_mask_is_answered_with_a_legal_action_and_said(
    plugin: GamePlugin, capsys: pytest.CaptureFixture[str]
) -> None:
    size = tensors_of(plugin).actions.size
    bot = policy_bot_class(lambda tensor, mask: size, plugin.name)()
    env = aec_env(plugin, plugin.max_players)
    env.reset(seed=1)
    seat = env.table.seat
    context = DecisionContext("outside", 1, seat, 1000, 0, game=plugin.name)
    action = bot.decide(plugin.decision_kind(env.table.state), env.table.observation(seat), context)
    assert env.observe(env.agent_selection)["action_mask"][tensors_of(plugin).actions.index(action)] == 1
    assert f"policy chose {size}, not a legal action" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (
            ["tests.conformance.recording_policy:record", "--game", "no_such_game"],
            "error: unknown game 'no_such_game'",
        ),
        (["no_such_module:act", "--game", "no_such_game"], "cannot import 'no_such_module'"),
        (["just_a_module", "--game", "no_such_game"], "expected module:function"),
    ],
)
def test_an_unservable_policy_or_game_is_one_line_and_exit_2(arguments: list[str], said: str) -> None:
    command = [sys.executable, "-m", "sdk.policy_bot", *arguments]
    done = subprocess.run(command, check=False, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1
