"""``smtourney bot check``: reference bots pass; each misbehaviour of the test bots fails with its line."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from sdk.games.registry import games, get_game
from server.bot_check import docs_page
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
    # Each game in match order: StartMatch after its first decision's match starts, EndMatch last.
    order = "".join(
        "S" if line.startswith("PASS StartMatch:") else "E" if line.startswith("PASS EndMatch:") else "D"
        for line in output.splitlines()
        if re.match(r"PASS (StartMatch:|EndMatch:|\w+ \()", line)
    )
    assert re.fullmatch(r"(SD+E)+", order) and order.count("S") == len(plugins), output


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


def test_a_table_size_the_game_has_not_is_one_line(tmp_path: Path) -> None:
    code, output = bot_check(
        "python -m bots.random", "--game", "saint_malo", "--players", "9", log_dir=tmp_path
    )
    assert (code, output) == (2, "error: --players: saint_malo is played by 2 to 5, not 9\n"), output
    code, output = bot_check("python -m bots.random", "--players", "2", log_dir=tmp_path)
    assert code == 2 and output.startswith("error: --players: needs --game"), output


def test_a_method_that_raises_is_named_with_its_message_and_its_traceback_is_logged(tmp_path: Path) -> None:
    code, output = bot_check("python -m tests.bots.raising_bot", "--game", "saint_malo", log_dir=tmp_path)
    assert code == 1, output
    log = tmp_path / "bot-check.log"
    raised = re.escape(f"the bot raised ValueError: boom-3141 (traceback in {log})")
    assert re.search(
        rf"^FAIL Keep \(the first position\): {raised} -- fix: mend the bot's method", output, re.M
    )
    assert re.search(r"-- fix: .*\(docs/bots-saint-malo\.md\)$", output, re.M), output
    assert "Traceback" not in output
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "ValueError: boom-3141" in text
    assert f"PASS health: grpc.health.v1.Health/Check answered SERVING (the bot's output: {log})" in output


def test_a_bot_that_cannot_start_is_reported_with_its_last_output(tmp_path: Path) -> None:
    (tmp_path / "bot-check.log").write_text("output of an earlier check\n")
    code, output = bot_check("python -m no_such_bot_module", log_dir=tmp_path)
    assert code == 1, output
    first, *quoted = output.splitlines()
    assert first.startswith(
        "FAIL health: exited with status 1 before becoming healthy -- fix: see why the bot"
    )
    assert re.fullmatch(r"    \| .*python\S*: No module named no_such_bot_module", quoted[-1]), output
    assert "earlier check" not in output + (tmp_path / "bot-check.log").read_text()  # a fresh log


def test_without_log_dir_the_log_goes_to_a_new_temporary_folder(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "server", "bot", "check", "python -m bots.random", "--game", "saint_malo"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    named = re.search(r"^PASS health: .* \(the bot's output: (.+)\)$", result.stdout, re.M)
    assert named is not None, result.stdout
    log = Path(named[1])
    try:
        assert log.parent.name.startswith("smtourney-bot-check-") and log.is_file()
        assert log.parent.parent == Path(tempfile.gettempdir())
        assert list(tmp_path.iterdir()) == []  # no logs folder in the current one
    finally:
        shutil.rmtree(log.parent)


def test_each_game_has_its_own_docs_page_for_fixes() -> None:
    pages = {name: docs_page(plugin) for name, plugin in games().items()}
    assert len(set(pages.values())) == len(pages), pages
    assert all((ROOT / page).is_file() for page in pages.values()), pages
