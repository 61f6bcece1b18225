"""Commands, environments, tokens, names and limits that a worker could not use are refused when the
bracket is loaded, at their file, line and field, before any database is written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.tournament.bracket import MAX_CA_FILE_BYTES, BracketError, load_bracket
from server.tournament.bracket_checks import MAX_ARGUMENT_BYTES

from ..commands import invoke

# The entrant under test is the third, on line 6.
HEAD = "name: t\nplayers: 2\nentrants:\n  - {name: a, command: x}\n  - {name: b, command: x}\n"
VISIBLE_ASCII = "may hold only visible ASCII characters (no newline, tab or other control)"

CASES: list[tuple[str, str, str]] = [
    # (the third entrant, its field, the message)
    (
        '{name: c, command: "python -m \'bots.random"}',
        "command",
        "cannot split the command into words: no closing quotation",
    ),
    (
        "{name: c, command: 'python -m bots.random \\'}",
        "command",
        "cannot split the command into words: no escaped character",
    ),
    ('{name: c, command: "python\\0 -m bots.random"}', "command", "a command cannot contain a NUL character"),
    (
        "{name: c, command: " + "x" * (MAX_ARGUMENT_BYTES + 1) + "}",
        "command",
        f"the command is longer than {MAX_ARGUMENT_BYTES:,} bytes",
    ),
    (
        "{name: c, command: x, env: {1BAD: v}}",
        "env.1BAD",
        "an environment variable name is letters, digits and _, not starting with a digit",
    ),
    (
        "{name: c, command: x, env: {'A=B': v}}",
        "env.A=B",
        "an environment variable name is letters, digits and _, not starting with a digit",
    ),
    (
        "{name: c, command: x, env: {'': v}}",
        "env.",  # the empty name
        "an environment variable name is letters, digits and _, not starting with a digit",
    ),
    (
        "{name: c, command: x, env: {SMTOURNEY_PORT: '1'}}",
        "env.SMTOURNEY_PORT",
        "SMTOURNEY_PORT is set by the referee for every launched bot",
    ),
    (
        '{name: c, command: x, env: {DEPTH: "2\\0"}}',
        "env.DEPTH",
        "an environment value cannot contain a NUL character",
    ),
    ('{name: c, address: "h:1", token: "abc\\ndef"}', "token", f"a token {VISIBLE_ASCII}"),
    ('{name: c, address: "h:1", token: "jeton-été"}', "token", f"a token {VISIBLE_ASCII}"),
    ('{name: c, address: "h:1", token: " padded"}', "token", "a token must not start or end with a space"),
    (
        '{name: c, address: "h:1", tls: {server_name: "bots\\r\\nX-Evil: 1"}}',
        "tls.server_name",
        f"a server name {VISIBLE_ASCII}",
    ),
    (
        "{name: c, address: 'h:70000'}",
        "address",
        "the port of 'h:70000' must be between 1 and 65535, got 70000",
    ),
    ("{name: c, address: 'h:0'}", "address", "the port of 'h:0' must be between 1 and 65535, got 0"),
    ("{name: c, address: 'h:-1'}", "address", "the port of 'h:-1' must be a number, got '-1'"),
    (
        "{name: c, address: '::1:50051'}",
        "address",
        "an IPv6 host goes in brackets (e.g. bots.example.org:50051 or [::1]:50051), got '::1:50051'",
    ),
    (
        '{name: c, address: "bots\\x1b.example.org:1"}',
        "address",
        "the host of 'bots\\x1b.example.org:1' must not contain spaces or control characters",
    ),
    (
        "{name: c, transport: inprocess, bot: bots.random}",
        "bot",
        "expected module:Class (e.g. mybots.greedy:GreedyBot), got 'bots.random'",
    ),
    ("{name: c, transport: inprocess, bot: 'bots.random:Nope'}", "bot", "module 'bots.random' has no 'Nope'"),
    (
        "{name: c, transport: inprocess, bot: 'no_such_module_anywhere:Bot'}",
        "bot",
        "cannot import 'no_such_module_anywhere': ModuleNotFoundError: "
        "No module named 'no_such_module_anywhere'",
    ),
    (
        "{name: c, transport: inprocess, bot: 'bots.random:main'}",
        "bot",
        "bots.random:main is not a bot class (a subclass of sdk.bot.Bot)",
    ),
    (
        "{name: c, transport: inprocess, bot: 'bots.cities.bot:CitiesHeuristicBot'}",
        "bot",
        "bots.cities.bot:CitiesHeuristicBot does not play saint_malo (plays: cities)",
    ),
    (
        "{name: c, transport: inprocess, bot: 'bots.random:RandomBot', sandbox: false}",
        "sandbox",
        "sandbox does not apply to transport: inprocess (the bot is a class called in the referee's process)",
    ),
    (
        "{name: c, command: x, bot: 'bots.random:RandomBot'}",
        "bot",
        "bot applies only to transport: inprocess (a Python bot class)",
    ),
    ("{name: c, transport: tcp, command: x}", "transport", "expected 'grpc' or 'inprocess', got 'tcp'"),
    (
        "{name: " + "n" * 65 + ", command: x}",
        "name",
        "an entrant name may have at most 64 characters, got 65",
    ),
    (
        "{name: " + "\U00020000" * 60 + ", command: x}",  # letters of four bytes each
        "name",
        "the name is too long for a log file name (over 200 bytes in UTF-8)",
    ),
]


@pytest.mark.parametrize(
    ("entrant", "field", "message"), CASES, ids=[case[1] + str(i) for i, case in enumerate(CASES)]
)
def test_an_entrant_a_worker_could_not_launch_or_reach_is_refused(
    tmp_path: Path, entrant: str, field: str, message: str
) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(HEAD + f"  - {entrant}\n", encoding="utf-8")
    with pytest.raises(BracketError) as caught:
        load_bracket(path)
    error = caught.value
    assert (error.line, error.field, error.message) == (6, f"entrants[2].{field}", message)


def test_the_run_command_refuses_them_before_writing_anything(tmp_path: Path) -> None:
    for index, (entrant, field, _) in enumerate(CASES):
        folder = tmp_path / str(index)
        folder.mkdir()
        path = folder / "x.yaml"
        path.write_text(HEAD + f"  - {entrant}\n", encoding="utf-8")
        code, output = invoke("run", str(path))
        assert code == 2
        assert output.startswith(f"error: {path}:6: entrants[2].{field}: ")
        assert output.count("\n") == 1
        assert os.listdir(folder) == ["x.yaml"]


@pytest.mark.parametrize(
    ("text", "line", "field", "message"),
    [
        (HEAD + 'database: "a\\0b.db"\n', 6, "database", "a path cannot contain a NUL character"),
        (
            HEAD.replace("name: t", "name: " + "t" * 201),
            1,
            "name",
            "a tournament name may have at most 200 characters, got 201",
        ),
        (HEAD + "limits: {memory_mb: 1}\n", 6, "limits.memory_mb", "must be at least 256, got 1"),
    ],
)
def test_impossible_tournament_settings(
    tmp_path: Path, text: str, line: int, field: str, message: str
) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text)
    code, output = invoke("run", str(path))
    assert code == 2 and output == f"error: {path}:{line}: {field}: {message}\n"
    assert os.listdir(tmp_path) == ["x.yaml"]


def test_a_certificate_file_must_be_small(tmp_path: Path) -> None:
    ca = tmp_path / "ca.pem"
    with ca.open("wb") as handle:
        handle.truncate(MAX_CA_FILE_BYTES + 1)
    path = tmp_path / "x.yaml"
    path.write_text(HEAD + "  - {name: c, address: 'h:1', tls: {ca_file: ca.pem}}\n")
    with pytest.raises(BracketError) as caught:
        load_bracket(path)
    assert caught.value.field == "entrants[2].tls.ca_file"
    assert caught.value.message == f"{ca} is larger than {MAX_CA_FILE_BYTES:,} bytes: not a certificate file"
