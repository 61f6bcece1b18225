"""Names, keys, paths and match ids holding markup or control characters are shown as written
(escaped where they could rewrite the terminal) in errors, progress and tables, and never crash."""

from __future__ import annotations

import json
from pathlib import Path

from ..commands import invoke, run_process

MARKUP_NAME = "[bold]x[/]"
HOSTILE_ENTRANT = "b\x1b[31mred\u202eevil"
SHOWN_ENTRANT = "b\\x1b[31mred\\u202eevil"

# Seats reached at a closed port are forfeited at once and played by the safe default: a real
# tournament that needs no bot process.
BRACKET = f"""\
name: {json.dumps(MARKUP_NAME)}
players: 2
entrants:
  - {{name: "[/]", address: "127.0.0.1:1"}}
  - {{name: {json.dumps(HOSTILE_ENTRANT)}, address: "127.0.0.1:1"}}
"""


def test_a_tournament_of_hostile_names_runs_and_shows_them_literally(tmp_path: Path) -> None:
    bracket = tmp_path / "[red]league.yaml"
    bracket.write_text(BRACKET, encoding="utf-8")
    db = tmp_path / "[red]league.db"

    ran = run_process("run", str(bracket), timeout=120)
    assert ran.code == 0, ran.stderr
    tables = [invoke(command, "--db", str(db))[1] for command in ("standings", "matches")]
    for output in (ran.stdout, *tables):
        assert MARKUP_NAME in output and "[/]" in output and SHOWN_ENTRANT in output
        assert "\x1b" not in output and "\u202e" not in output
    assert "leader: " in ran.stdout  # the progress line, with the leader's name
    code, output = invoke("replay", "r1-t000-s0", "--db", str(db), "--turn", "1")
    assert code == 0 and SHOWN_ENTRANT in output and "\x1b" not in output


def test_errors_quote_markup_in_paths_and_keys_literally(tmp_path: Path) -> None:
    (tmp_path / "[").mkdir()
    bracket = tmp_path / "[" / "]x.yaml"  # .../[/]x.yaml
    bracket.write_text(BRACKET + '"[bold]key[/]": 1\n', encoding="utf-8")
    code, output = invoke("run", str(bracket))
    assert code == 2
    assert output == f"error: {bracket}:6: [bold]key[/]: unknown key '[bold]key[/]'; known keys: " + (
        "name, game, players, format, rounds, groups, advance, until, settle, reseed, sprt, stages, seed, "
        "time_control, strikes, workers, executor, database, params, duplicate, max_tables, "
        "startup_timeout_s, limits, fresh_process, sandbox, entrants\n"
    )
    missing = tmp_path / "[/]missing\x1b.db"
    assert invoke("standings", "--db", str(missing)) == (
        1,
        f"error: {tmp_path}/[/]missing\\x1b.db: no such database\n",
    )
    assert invoke("replay", "[/]", "--db", str(missing))[0] == 1


def test_play_shows_a_markup_seat_name_and_its_fault_literally(tmp_path: Path) -> None:
    # The seat is named after the command's last word, which the bot refuses: the pre-flight check
    # stops the match, naming the seat and quoting the bot's complaint, markup and all.
    played = run_process(
        "play",
        "--game",
        "saint_malo",
        "--bot",
        "python -m bots.random",
        "--bot",
        "python -m bots.random [/]",
        "--log-dir",
        str(tmp_path),
        timeout=120,
    )
    assert played.code == 2, played.stderr
    (line,) = played.stderr.splitlines()
    assert line.startswith(
        "error: entrant '[/]' failed the pre-flight check: start-up failed: exited with status 2 "
    )
    assert line.endswith("random.py: error: unrecognized arguments: [/]")
