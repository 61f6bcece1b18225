"""``smtourney bot check``: reference bots pass; each misbehaviour of the test bots fails with its line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sdk.games.registry import games, get_game
from server.launcher import free_port

from ..conftest import processes_with
from .conftest import ROOT, stub_only_bot


def bot_check(*args: str, log_dir: Path) -> tuple[int, str]:
    """Run the command as a user would, from the repository root; its exit status and output."""
    result = subprocess.run(
        [sys.executable, "-m", "server", "bot", "check", *args, "--log-dir", str(log_dir)],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=240,
    )
    return result.returncode, result.stdout + result.stderr


def assert_all_pass(output: str) -> None:
    lines = output.splitlines()
    assert lines and all(line.startswith("PASS ") for line in lines), output
    assert any(line.startswith("PASS Hello:") for line in lines)


@pytest.mark.parametrize(
    ("command", "played"),
    [
        ("python -m bots.random", None),  # every installed game
        ("python -m bots.greedy", "saint_malo"),
        ("python docs/examples/example_bot.py", "saint_malo"),
    ],
)
def test_reference_bots_pass(command: str, played: str | None, tmp_path: Path) -> None:
    code, output = bot_check(command, log_dir=tmp_path)
    assert code == 0, output
    assert_all_pass(output)
    rpcs = {m[1] for m in re.finditer(r"^PASS (\w+) \(", output, re.MULTILINE)}
    plugins = list(games().values()) if played is None else [get_game(played)]
    assert rpcs == {spec.rpc for plugin in plugins for spec in plugin.decisions}, output


def test_a_bot_built_from_the_proto_files_alone_passes(tmp_path: Path) -> None:
    generated = tmp_path / "generated"
    generated.mkdir()
    code, output = bot_check(f"python {stub_only_bot(generated)}", "--game", "saint_malo", log_dir=tmp_path)
    assert code == 0, output
    assert_all_pass(output)


FIRST = r"^FAIL Keep \(the first position\): "
# fault of tests/bots/faulty_bot.py (misbehaving from its first Keep) -> the line that must fail
FAILURES = {
    "sleep": FIRST + r"no KeepReply within 500 ms -- fix: answer within",
    "illegal": FIRST + r"KeepReply \{decision_id: 1 reroll: 99\} is illegal: R3 keep",
    "empty": FIRST + r"KeepReply is empty -- fix: set decision_id",
    "garbage": FIRST + r"error status INTERNAL",
    "wrong_kind": r"^FAIL Place \(the first position\): PlaceReply \{decision_id: \d+ \w+ \{.*\}\} "
    r"is illegal",
    "huge": FIRST + r"KeepReply is too large: .* -- fix: replies are at most 4 MiB",
    # (its first stale reply, decision id 0, is all defaults: empty)
    "stale": r"^FAIL Keep \([^)]*\): KeepReply.decision_id is \d+, expected \d+ -- fix: copy "
    r"request.context.decision_id",
    "crash": FIRST + r"the bot cannot be reached",
    "exit_after_hello": r"^FAIL StartMatch: the bot cannot be reached",
    "unhealthy": r"^FAIL health: not healthy \(SERVING\) within 3 s",
    "no_health": r"^FAIL health: the health check \(grpc.health.v1.Health/Check\) answered UNIMPLEMENTED: "
    r".* -- fix: serve grpc.health.v1.Health",
}


@pytest.mark.parametrize("fault", sorted(FAILURES))
def test_each_misbehaviour_fails_with_its_line(fault: str, tag: str, tmp_path: Path) -> None:
    command = f"python -m tests.bots.faulty_bot --fault {fault} --at 1 --tag {tag}"
    # Building a 100 MB reply takes the bot a while: time enough that the size limit is what trips.
    decision_ms = "10000" if fault == "huge" else "500"
    startup = "3" if fault == "unhealthy" else "30"  # short only where it must run out
    options = ["--game", "saint_malo", "--decision-ms", decision_ms, "--startup-timeout", startup]
    code, output = bot_check(command, *options, log_dir=tmp_path)
    assert code == 1, output
    assert re.search(FAILURES[fault], output, re.MULTILINE), output
    assert "Traceback" not in output
    assert processes_with(tag) == []


def test_a_refused_connection_is_reported_at_once(tmp_path: Path) -> None:
    code, output = bot_check(f"127.0.0.1:{free_port()}", log_dir=tmp_path)
    assert code == 1
    assert re.fullmatch(
        r"FAIL health: Health/Check failed: UNAVAILABLE: .* -- fix: is the bot running and "
        r"listening on 127\.0\.0\.1:\d+\?\n",
        output,
    ), output


def test_an_unknown_game_is_one_line(tmp_path: Path) -> None:
    code, output = bot_check("python -m bots.random", "--game", "no_such_game", log_dir=tmp_path)
    assert code == 2 and output.startswith("error: --game: unknown game 'no_such_game'"), output
