"""Bracket files: a valid one becomes seat specs and a referee config; every kind of
mistake is reported with the file, line and field a user has to look at."""

from __future__ import annotations

import pickle
import re
import textwrap
from pathlib import Path

import pytest
from pydantic import BaseModel

from sdk.games.registry import games
from server.client import Tls
from server.launcher import Limits
from server.referee import RefereeConfig, TimeControl
from server.seats import SeatSpec
from server.tournament.bracket import (
    Bracket,
    BracketError,
    Entrant,
    SprtConfig,
    StageConfig,
    TlsConfig,
    UntilConfig,
    format_path,
    load_bracket,
)
from server.tournament.shared_config import LimitsConfig, TimeControlConfig

ROOT = Path(__file__).resolve().parents[2]

# Four entrants starting on line 4; each entrant mapping starts on line 5 + 2 * index.
BASE = """\
name: test
players: 2
entrants:
  - name: a
    command: python -m bots.random
  - name: b
    command: python -m bots.random
  - name: c
    command: python -m bots.greedy
"""


def write(tmp_path: Path, text: str, name: str = "x.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(path: Path) -> BracketError:
    with pytest.raises(BracketError) as caught:
        load_bracket(path)
    return caught.value


def assert_error(path: Path, line: int | None, field: str | None, message: str) -> BracketError:
    """The error of ``path`` is exactly at ``line``/``field`` and says ``message``."""
    err = error_of(path)
    assert (err.path, err.line, err.field, err.message) == (path, line, field, message)
    where = f"{path}:{line}" if line is not None else str(path)
    assert str(err) == (f"{where}: {field}: {message}" if field else f"{where}: {message}")
    return err


# --- a valid bracket ----------------------------------------------------------------------------


def test_a_full_bracket_becomes_seat_specs_and_a_referee_config(tmp_path: Path) -> None:
    (tmp_path / "certs").mkdir()
    (tmp_path / "certs" / "ca.pem").write_text("not checked here\n")
    path = write(
        tmp_path,
        """\
        name: full
        game: saint_malo
        players: 3
        format: round-robin
        rounds: 2
        seed: 7
        time_control: {decision_ms: 500, bank_ms: 0}
        strikes: 2
        workers: 4
        database: results/full.sqlite
        params:
          cannons: 4
        duplicate: true
        max_tables: 10
        startup_timeout_s: 5
        limits: {memory_mb: null, cpu_seconds: 60}
        entrants:
          - name: local
            command: python -m bots.greedy --port {port}
            env: {GREEDY_DEPTH: "2"}
            sandbox: false
          - name: remote
            address: bots.example.org:50051
            tls: {ca_file: certs/ca.pem, server_name: bots.internal}
            token: s3cret
          - name: public
            address: "[::1]:443"
            tls: true
          - name: plain
            address: 127.0.0.1:50052
            tls: false
        """,
    )
    bracket = load_bracket(path)

    assert bracket.seat_specs() == [
        SeatSpec(
            name="local",
            command="python -m bots.greedy --port {port}",
            env={"GREEDY_DEPTH": "2"},
            sandbox=False,
        ),
        SeatSpec(
            name="remote",
            address="bots.example.org:50051",
            tls=Tls(ca_file=tmp_path / "certs" / "ca.pem", server_name="bots.internal"),
            token="s3cret",
        ),
        SeatSpec(name="public", address="[::1]:443", tls=Tls()),
        SeatSpec(name="plain", address="127.0.0.1:50052"),
    ]
    assert bracket.referee_config() == RefereeConfig(
        time_control=TimeControl(decision_ms=500, bank_ms=0),
        strikes_to_forfeit=2,
        startup_timeout_s=5.0,
        limits=Limits(memory_mb=None, cpu_seconds=60),
    )
    assert bracket.database == bracket.database_path == tmp_path / "results" / "full.sqlite"
    assert (bracket.name, bracket.game, bracket.players, bracket.format) == (
        "full",
        "saint_malo",
        3,
        "round-robin",
    )
    assert (bracket.rounds, bracket.seed, bracket.workers, bracket.duplicate, bracket.max_tables) == (
        2,
        7,
        4,
        True,
        10,
    )
    # Params come back normalized: every parameter present, the given one kept.
    assert bracket.params["cannons"] == 4
    assert set(bracket.params) == {"start_crates", "side_bonuses", "cannons"}


def test_a_minimal_bracket_takes_the_documented_defaults(tmp_path: Path) -> None:
    bracket = load_bracket(write(tmp_path, BASE, "league.yaml"))
    assert bracket.game == "saint_malo"
    assert bracket.format == "round-robin"
    assert (bracket.rounds, bracket.seed, bracket.strikes, bracket.workers) == (1, 0, 3, 1)
    assert bracket.time_control == TimeControlConfig(decision_ms=1000, bank_ms=10_000)
    assert bracket.limits == LimitsConfig(memory_mb=2048, cpu_seconds=None)
    assert (bracket.duplicate, bracket.max_tables, bracket.startup_timeout_s) == (False, 500, 20.0)
    assert bracket.database == tmp_path / "league.db"
    assert bracket.referee_config() == RefereeConfig()
    assert [e.env for e in bracket.entrants] == [{}, {}, {}]
    assert not bracket.fresh_process and not any(spec.fresh_process for spec in bracket.seat_specs())


@pytest.mark.parametrize(
    ("bracket_level", "entrant_level", "fresh"),
    [
        ("", ["", "", ""], [False, False, False]),
        ("fresh_process: true\n", ["", "", ""], [True, True, True]),
        ("", [", fresh_process: true", "", ", fresh_process: false"], [True, False, False]),
        ("fresh_process: true\n", [", fresh_process: false", "", ""], [False, True, True]),
    ],
)
def test_fresh_process_is_the_entrant_s_or_else_the_bracket_s(
    tmp_path: Path, bracket_level: str, entrant_level: list[str], fresh: list[bool]
) -> None:
    text = "name: t\nplayers: 2\n" + bracket_level + "entrants:\n"
    text += "".join(f"  - {{name: e{i}, command: x{extra}}}\n" for i, extra in enumerate(entrant_level))
    specs = load_bracket(write(tmp_path, text)).seat_specs()
    assert [spec.fresh_process for spec in specs] == fresh


def test_the_demo_bracket_loads() -> None:
    bracket = load_bracket(ROOT / "tournaments" / "demo.yaml")
    assert (bracket.name, bracket.game, bracket.players, bracket.rounds, bracket.seed) == (
        "demo",
        "saint_malo",
        4,
        3,
        2026,
    )
    assert bracket.referee_config().time_control == TimeControl(decision_ms=2000, bank_ms=20_000)
    assert bracket.workers == 2
    assert [(s.name, s.command) for s in bracket.seat_specs()] == [
        ("greedy-1", "python -m bots.greedy"),
        ("greedy-2", "python -m bots.greedy"),
        ("random-1", "python -m bots.random"),
        ("random-2", "python -m bots.random"),
    ]
    assert bracket.database == ROOT / "tournaments" / "demo.db"


# --- relative paths -------------------------------------------------------------------------------


def test_relative_paths_are_relative_to_the_bracket_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "brackets"
    folder.mkdir()
    (folder / "ca.pem").write_text("pem\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    text = BASE + "  - name: r\n    address: host:1\n    tls: {ca_file: ca.pem}\n" + "database: data/t.db\n"
    bracket = load_bracket(Path("..") / "brackets" / write(folder, text).name)
    assert bracket.database is not None
    assert bracket.database.resolve() == (folder / "data" / "t.db").resolve()
    ca_file = bracket.seat_specs()[3].tls
    assert ca_file is not None and ca_file.ca_file is not None
    assert ca_file.ca_file.resolve() == (folder / "ca.pem").resolve()


def test_the_default_database_is_named_after_the_bracket_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t").mkdir()
    bracket = load_bracket(Path("t") / write(tmp_path / "t", BASE, "spring-cup.yaml").name)
    assert bracket.database == tmp_path / "t" / "spring-cup.db"


def test_an_absolute_database_path_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "abs" / "x.db"
    bracket = load_bracket(write(tmp_path, BASE + f"database: {target}\n"))
    assert bracket.database == target


def test_a_bracket_built_in_code_resolves_against_the_working_directory() -> None:
    bracket = Bracket.model_validate(
        {
            "name": "code",
            "players": 2,
            "entrants": [{"name": "a", "command": "x"}, {"name": "b", "command": "y"}],
        }
    )
    assert bracket.database == Path("code.db")


def test_a_missing_ca_file_is_reported_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + "  - name: r\n    address: host:1\n    tls:\n      ca_file: nope.pem\n")
    assert_error(path, 13, "entrants[3].tls.ca_file", f"file not found: {tmp_path / 'nope.pem'}")


# --- fingerprint ----------------------------------------------------------------------------------

FINGERPRINTED = """\
name: fp
players: 2
seed: 5
rounds: 2
workers: 1
params: {cannons: 3, side_bonuses: {top: vp}}
entrants:
  - {name: a, command: python -m bots.random}
  - {name: b, command: python -m bots.greedy}
  - {name: c, command: python -m bots.greedy}
"""


def fingerprint(tmp_path: Path, text: str, name: str = "fp.yaml") -> str:
    return load_bracket(write(tmp_path, text, name)).fingerprint()


def test_the_fingerprint_ignores_key_order_workers_database_and_how_bots_run(tmp_path: Path) -> None:
    base = fingerprint(tmp_path, FINGERPRINTED)
    assert re.fullmatch(r"[0-9a-f]{64}", base)
    reordered = (
        "\n".join(reversed(FINGERPRINTED.split("\n")[:6])) + "\n" + "\n".join(FINGERPRINTED.split("\n")[6:])
    )
    reordered = reordered.replace(
        "params: {cannons: 3, side_bonuses: {top: vp}}", "params: {side_bonuses: {top: vp}, cannons: 3}"
    )
    assert reordered != FINGERPRINTED
    assert fingerprint(tmp_path, reordered) == base
    assert fingerprint(tmp_path, FINGERPRINTED.replace("workers: 1", "workers: 8")) == base
    assert fingerprint(tmp_path, FINGERPRINTED + "database: other.db\n") == base
    assert fingerprint(tmp_path, FINGERPRINTED, "renamed-file.yaml") == base
    assert fingerprint(tmp_path, FINGERPRINTED + "limits: {memory_mb: 512}\nstartup_timeout_s: 3\n") == base
    assert fingerprint(tmp_path, FINGERPRINTED.replace("bots.greedy}", "bots.greedy --fast}")) == base
    assert fingerprint(tmp_path, FINGERPRINTED + "fresh_process: true\n") == base
    # Spelling out a default parameter is the same tournament.
    explicit = FINGERPRINTED.replace("{top: vp}", "{top: vp, right: coins}")
    assert fingerprint(tmp_path, explicit) == base


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("seed: 5", "seed: 6"),
        ("rounds: 2", "rounds: 3"),
        ("name: fp", "name: fp2"),
        ("players: 2", "players: 3"),
        ("cannons: 3", "cannons: 4"),
        ("{name: c,", "{name: d,"),
        ("workers: 1", "workers: 1\nduplicate: true"),
        ("workers: 1", "workers: 1\nmax_tables: 2"),
        ("workers: 1", "workers: 1\nstrikes: 1"),
        ("workers: 1", "workers: 1\ntime_control: {bank_ms: 0}"),
    ],
)
def test_the_fingerprint_changes_with_the_tournament(tmp_path: Path, old: str, new: str) -> None:
    assert old in FINGERPRINTED
    assert fingerprint(tmp_path, FINGERPRINTED.replace(old, new)) != fingerprint(tmp_path, FINGERPRINTED)


def test_the_fingerprint_changes_with_the_entrant_order(tmp_path: Path) -> None:
    lines = FINGERPRINTED.split("\n")
    lines[7], lines[8] = lines[8], lines[7]
    assert fingerprint(tmp_path, "\n".join(lines)) != fingerprint(tmp_path, FINGERPRINTED)


# --- file-level errors ------------------------------------------------------------------------------


def test_a_missing_file(tmp_path: Path) -> None:
    assert_error(tmp_path / "absent.yaml", None, None, "no such bracket file")


def test_a_yaml_syntax_error_reports_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nplayers: 2\nentrants:\n  - name: a\n    command: oops: here\n")
    err = assert_error(
        path,
        5,
        "entrants[0]",
        "invalid YAML: mapping values are not allowed here",
    )
    assert str(err) == f"{path}:5: entrants[0]: invalid YAML: mapping values are not allowed here"


def test_a_yaml_structure_error_names_where_the_structure_began(tmp_path: Path) -> None:
    path = write(tmp_path, 'name: "x\nplayers: 2\n')
    assert_error(
        path,
        3,
        "name",
        "invalid YAML: found unexpected end of stream (while scanning a quoted scalar on line 1)",
    )


@pytest.mark.parametrize(
    ("text", "line", "field", "message"),
    [
        (
            "name: ok\nplayers: 2\nseed: \x07\n",
            3,
            None,
            "unacceptable character #x0007: special characters are not allowed",
        ),
        (
            "name: ok\n---\nname: again\n",
            2,
            None,
            "but found another document (expected a single document in the stream on line 1)",
        ),
        (
            "name: ok\nplayers: [2\nseed: 1\n",
            3,
            "players",
            "expected ',' or ']', but got ':' (while parsing a flow sequence on line 2)",
        ),
        (
            "name: !!python/object:os.system x\n",
            1,
            "name",
            "could not determine a constructor for the tag 'tag:yaml.org,2002:python/object:os.system'",
        ),
    ],
)
def test_other_yaml_errors_report_their_line(
    tmp_path: Path, text: str, line: int, field: str | None, message: str
) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    assert_error(path, line, field, f"invalid YAML: {message}")


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"name: caf\xe9\n")
    assert_error(path, None, None, "not UTF-8 text: invalid continuation byte at byte 9")


def test_the_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    assert_error(
        write(tmp_path, "\n# a list\n- name: a\n"),
        3,
        None,
        "expected a mapping of bracket fields, got a list",
    )
    assert_error(
        write(tmp_path, "# nothing yet\n"),
        None,
        None,
        "expected a mapping of bracket fields, got an empty file",
    )


def test_a_repeated_key_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + "seed: 1\nrounds: 2\nseed: 2\n")
    assert_error(path, 12, "seed", "duplicate key (first given on line 10)")


def test_merge_keys_are_not_repeated_keys(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
        name: merged
        players: 2
        entrants:
          - &bot {name: a, command: python -m bots.random, env: {X: "1"}}
          - <<: *bot
            name: b
        """,
    )
    assert [e.name for e in load_bracket(path).entrants] == ["a", "b"]


# --- field errors ----------------------------------------------------------------------------------


def test_an_unknown_key_suggests_the_near_one(tmp_path: Path) -> None:
    assert_error(
        write(tmp_path, BASE + "seeds: 4\n"), 10, "seeds", "unknown key 'seeds' (did you mean 'seed'?)"
    )


def test_an_unknown_key_lists_the_known_ones(tmp_path: Path) -> None:
    text = BASE.replace("players: 2\n", "players: 2\ntime_control:\n  decision_ms: 10\n  sudden_death: yes\n")
    assert_error(
        write(tmp_path, text),
        5,
        "time_control.sudden_death",
        "unknown key 'sudden_death'; known keys: decision_ms, bank_ms",
    )


def test_an_unknown_entrant_key_points_at_that_key(tmp_path: Path) -> None:
    text = BASE.replace("command: python -m bots.greedy", "command: python -m bots.greedy\n    comand: x")
    assert_error(
        write(tmp_path, text), 10, "entrants[2].comand", "unknown key 'comand' (did you mean 'command'?)"
    )


def test_the_topmost_of_several_errors_is_reported(tmp_path: Path) -> None:
    text = BASE.replace("players: 2", "players: two") + "rounds: 0\nbogus: 1\n"
    assert_error(write(tmp_path, text), 2, "players", "expected an integer, got 'two'")


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ("rounds: three", "rounds", "expected an integer, got 'three'"),
        ("rounds: 2.5", "rounds", "expected an integer, got 2.5"),
        ("rounds: true", "rounds", "expected an integer, got true"),
        ("rounds: 0", "rounds", "must be at least 1, got 0"),
        ("seed: -1", "seed", "must be at least 0, got -1"),
        ("strikes: 0", "strikes", "must be at least 1, got 0"),
        ("workers: 0", "workers", "must be at least 1, got 0"),
        ("max_tables: 0", "max_tables", "must be at least 1, got 0"),
        ("startup_timeout_s: 0", "startup_timeout_s", "must be at least 1, got 0"),
        ("startup_timeout_s: soon", "startup_timeout_s", "expected a number, got 'soon'"),
        ("duplicate: maybe", "duplicate", "expected true or false, got 'maybe'"),
        ("time_control: 5", "time_control", "expected a mapping (key: value lines), got 5"),
        ("time_control: {decision_ms: 0}", "time_control.decision_ms", "must be at least 1, got 0"),
        ("time_control: {bank_ms: -5}", "time_control.bank_ms", "must be at least 0, got -5"),
        ("limits: {memory_mb: lots}", "limits.memory_mb", "expected an integer, got 'lots'"),
        ("params: [cannons]", "params", "expected a mapping (key: value lines), got a list"),
        (
            "format: ladder",
            "format",
            "unknown format 'ladder'; known formats: gauntlet, knockout, round-robin, swiss",
        ),
        ("game: chess", "game", f"unknown game 'chess'; installed games: {', '.join(sorted(games()))}"),
        ("database: [a]", "database", "expected a path, got a list"),
    ],
)
def test_a_bad_value_is_reported_at_its_line(tmp_path: Path, extra: str, field: str, message: str) -> None:
    assert_error(write(tmp_path, BASE + extra + "\n"), 10, field, message)


def test_an_empty_tournament_name(tmp_path: Path) -> None:
    assert_error(
        write(tmp_path, BASE.replace("name: test", "name: ' '")),
        1,
        "name",
        "tournament name must not be empty",
    )


def test_a_string_field_given_a_number_suggests_quotes(tmp_path: Path) -> None:
    text = BASE.replace(
        "    command: python -m bots.greedy", "    command: python -m bots.greedy\n    env: {DEPTH: 3}"
    )
    assert_error(
        write(tmp_path, text), 10, "entrants[2].env.DEPTH", "expected a string, got 3 (put it in quotes)"
    )


def test_a_missing_top_level_field_points_at_the_top_mapping(tmp_path: Path) -> None:
    text = "# the demo\n\n" + BASE.replace("players: 2\n", "")
    assert_error(write(tmp_path, text), 3, "players", "missing required field 'players'")


def test_a_missing_entrant_field_points_at_the_entrant(tmp_path: Path) -> None:
    text = BASE.replace("  - name: b\n    command", "  - command")
    assert_error(write(tmp_path, text), 6, "entrants[1].name", "missing required field 'name'")


def test_a_missing_field_of_a_nested_mapping_points_at_its_key(tmp_path: Path) -> None:
    text = BASE + "  - address: h:1\n    tls:\n      server_name: x\n"
    assert_error(write(tmp_path, text), 10, "entrants[3].name", "missing required field 'name'")


def test_an_entrant_must_be_a_mapping(tmp_path: Path) -> None:
    text = BASE + "  - greedy\n"
    assert_error(
        write(tmp_path, text), 10, "entrants[3]", "expected a mapping (key: value lines), got 'greedy'"
    )


def test_a_duplicate_entrant_name_points_at_the_second_one(tmp_path: Path) -> None:
    text = BASE.replace("name: c", "name: a")
    assert_error(
        write(tmp_path, text), 8, "entrants[2].name", "duplicate entrant name 'a' (also entrants[0])"
    )


def test_too_few_entrants_for_the_table(tmp_path: Path) -> None:
    text = BASE.replace("players: 2", "players: 4")
    assert_error(
        write(tmp_path, text),
        3,
        "entrants",
        "3 entrants cannot fill a table of 4 players; add entrants or lower players",
    )


def test_fewer_than_two_entrants(tmp_path: Path) -> None:
    text = "name: t\nplayers: 2\nentrants:\n  - name: a\n    command: x\n"
    assert_error(write(tmp_path, text), 3, "entrants", "a tournament needs at least 2 entrants, got 1")


@pytest.mark.parametrize(("players", "message"), [(1, "got 1"), (6, "got 6")])
def test_players_outside_the_game_range(tmp_path: Path, players: int, message: str) -> None:
    text = BASE.replace("players: 2", f"players: {players}")
    assert_error(write(tmp_path, text), 2, "players", f"saint_malo is played by 2 to 5 players, {message}")


def test_an_unknown_game_parameter_points_at_it(tmp_path: Path) -> None:
    text = BASE + "params:\n  cannons: 2\n  pirates: 9\n"
    assert_error(write(tmp_path, text), 12, "params.pirates", "unknown game parameter(s): pirates")


def test_a_bad_nested_game_parameter_points_at_the_sub_key(tmp_path: Path) -> None:
    text = BASE + "params:\n  side_bonuses:\n    top: vp\n    diagonal: coins\n"
    assert_error(
        write(tmp_path, text), 13, "params.side_bonuses.diagonal", "unknown side(s) in side_bonuses: diagonal"
    )


def test_a_game_parameter_error_naming_no_key_points_at_the_failing_key(tmp_path: Path) -> None:
    text = BASE + "params:\n  cannons: 2\n  start_crates: [[9, 9]]\n"
    assert_error(write(tmp_path, text), 12, "params.start_crates", "(9, 9) is off the 7x7 board")
    text = BASE + "params:\n  side_bonuses: 5\n"
    assert_error(
        write(tmp_path, text), 11, "params.side_bonuses", "invalid value: 'int' object is not iterable"
    )


@pytest.mark.parametrize(
    ("entrant", "line", "field", "message"),
    [
        (
            "  - name: r\n    command: x\n    address: h:1\n",
            12,
            "entrants[3].address",
            "give either command or address, not both",
        ),
        (
            "  - name: r\n    env: {A: b}\n",
            10,
            "entrants[3]",
            "entrant 'r' needs a command (to launch the bot) or an address (to reach a running bot)",
        ),
        (
            "  - name: r\n    command: x\n    tls: true\n",
            12,
            "entrants[3].tls",
            "tls applies only to a bot reached by address, not to a command",
        ),
        (
            "  - name: r\n    command: x\n    token: t\n",
            12,
            "entrants[3].token",
            "token applies only to a bot reached by address, not to a command",
        ),
        (
            "  - name: r\n    address: h:1\n    fresh_process: true\n",
            12,
            "entrants[3].fresh_process",
            "fresh_process applies only to a bot launched by command, not to an address",
        ),
        (
            "  - name: r\n    address: localhost\n",
            11,
            "entrants[3].address",
            "address must be host:port (e.g. bots.example.org:50051 or [::1]:50051), got 'localhost'",
        ),
        (
            "  - name: r\n    address: h:99999\n",
            11,
            "entrants[3].address",
            "the port of 'h:99999' must be between 1 and 65535, got 99999",
        ),
        (
            "  - name: r\n    address: h:1\n    tls: yes please\n",
            12,
            "entrants[3].tls",
            "tls must be true, false or a mapping with ca_file and server_name, got 'yes please'",
        ),
        (
            "  - name: r\n    address: h:1\n    tls: {ca: x}\n",
            12,
            "entrants[3].tls.ca",
            "unknown key 'ca'; known keys: ca_file, server_name",
        ),
        ("  - name: '  '\n    command: x\n", 10, "entrants[3].name", "entrant name must not be empty"),
        ("  - name: r\n    command: ' '\n", 11, "entrants[3].command", "command must not be empty"),
        (
            "  - name: 7\n    command: x\n",
            10,
            "entrants[3].name",
            "expected a string, got 7 (put it in quotes)",
        ),
        ("  - name: r\n    address: h:1\n    token: ''\n", 12, "entrants[3].token", "must not be empty"),
    ],
)
def test_entrant_errors(tmp_path: Path, entrant: str, line: int, field: str, message: str) -> None:
    assert_error(write(tmp_path, BASE + entrant), line, field, message)


# --- the error object and helpers -------------------------------------------------------------------


def test_a_bracket_error_survives_pickling(tmp_path: Path) -> None:
    err = BracketError(tmp_path / "x.yaml", 3, "seed", "must be at least 0, got -1")
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.path, copy.line, copy.field, copy.message) == (err.path, 3, "seed", err.message)
    assert str(copy) == str(err) == f"{tmp_path / 'x.yaml'}:3: seed: must be at least 0, got -1"
    assert isinstance(copy, ValueError)


def test_format_path() -> None:
    assert format_path(("entrants", 2, "name")) == "entrants[2].name"
    assert format_path(("time_control", "decision_ms")) == "time_control.decision_ms"
    assert format_path((0,)) == "[0]"
    assert format_path(()) == ""


# --- documentation --------------------------------------------------------------------------------

DOC = ROOT / "docs" / "brackets.md"


def test_the_annotated_example_in_the_docs_loads(tmp_path: Path) -> None:
    blocks = re.findall(r"^```yaml\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    assert blocks, f"no ```yaml block in {DOC}"
    (tmp_path / "certs").mkdir()
    (tmp_path / "certs" / "league-ca.pem").write_text("pem\n")
    (tmp_path / "mybot").mkdir()
    bracket = load_bracket(write(tmp_path, blocks[0], "spring.yaml"))
    assert bracket.name == "spring-league"
    assert bracket.seat_specs()


@pytest.mark.parametrize(
    "model",
    [Bracket, Entrant, TimeControlConfig, LimitsConfig, TlsConfig, UntilConfig, SprtConfig, StageConfig],
)
def test_the_docs_describe_every_field(model: type[BaseModel]) -> None:
    text = DOC.read_text(encoding="utf-8")
    for name, info in model.model_fields.items():
        assert f"`{name}`" in text or f".{name}`" in text, (
            f"{model.__name__}.{name} is not documented in {DOC}"
        )
        assert info.description, f"{model.__name__}.{name} has no description"
