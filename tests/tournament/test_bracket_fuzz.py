"""A walk through generated bad brackets: every one is refused by ``smtourney run`` with exit status 2
and one line ``file:line: field: message`` at the line and field that were spoiled, no traceback,
nothing written, in bounded time.

Each bracket is a valid one with one thing spoiled: a field given a value of the wrong type, out of
range or nonsensical; an entrant that cannot be launched or reached; a key misspelt, repeated or
missing; or YAML built to cost time (aliases, nesting). The walk runs in-process; a sample also runs
as real processes, concurrently.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..commands import ENV, SMTOURNEY, invoke

BASE_LINES = [
    "name: fuzz",  # 1
    "game: saint_malo",  # 2
    "players: 2",  # 3
    "format: round-robin",  # 4
    "rounds: 1",  # 5
    "seed: 0",  # 6
    "strikes: 3",  # 7
    "workers: 1",  # 8
    "max_tables: 500",  # 9
    "startup_timeout_s: 20",  # 10
    "duplicate: false",  # 11
    "database: fuzz.db",  # 12
    "time_control: {decision_ms: 1000, bank_ms: 10000}",  # 13
    "limits: {memory_mb: 2048, cpu_seconds: 60}",  # 14
    "params: {cannons: 6}",  # 15
    "entrants:",  # 16
    '  - {name: a, address: "127.0.0.1:1"}',  # 17
    '  - {name: b, address: "127.0.0.1:1"}',  # 18
]
LINE_OF = {
    line.split(":")[0]: number for number, line in enumerate(BASE_LINES, 1) if not line.startswith(" ")
}

NOT_AN_INT = ["three", "2.5", "true", "null", "'7'", "[1]", "{a: 1}", ".inf", "-1", "18446744073709551616"]
NOT_A_NUMBER = ["soon", ".inf", ".nan", "true", "-1", "0", "601", "[1]", "'20'", "1.0e+400"]
NOT_A_TEXT = ["7", "true", "null", "[a]", "{a: 1}", "''", "'   '", "x" * 300]
NOT_A_BOOLEAN = ["maybe", "1", "[true]", "null", "'true'"]
NOT_A_PATH = ["[a]", "{a: 1}", "7", '"a\\0b.db"']


@dataclass(frozen=True)
class Case:
    text: str
    line: int
    field: str


def replaced(number: int, line: str) -> str:
    """The base bracket with line ``number`` (1-based) replaced."""
    lines = list(BASE_LINES)
    lines[number - 1] = line
    return "\n".join(lines) + "\n"


def appended(*lines: str) -> str:
    return "\n".join([*BASE_LINES, *lines]) + "\n"


def cases() -> dict[str, Case]:
    found: dict[str, Case] = {}
    for key in ("players", "rounds", "seed", "strikes", "workers", "max_tables"):
        for value in NOT_AN_INT:
            found[f"{key}={value}"] = Case(replaced(LINE_OF[key], f"{key}: {value}"), LINE_OF[key], key)
    for key, other in (("decision_ms", "bank_ms: 1"), ("bank_ms", "decision_ms: 1")):
        for value in NOT_AN_INT:
            text = replaced(13, f"time_control: {{{key}: {value}, {other}}}")
            found[f"{key}={value}"] = Case(text, 13, f"time_control.{key}")
    for key in ("memory_mb", "cpu_seconds"):
        for value in [*NOT_AN_INT[:3], "1", "'512'", "1099511627776"]:
            found[f"{key}={value}"] = Case(replaced(14, f"limits: {{{key}: {value}}}"), 14, f"limits.{key}")
    for value in NOT_A_NUMBER:
        found[f"startup={value}"] = Case(replaced(10, f"startup_timeout_s: {value}"), 10, "startup_timeout_s")
    for key in ("name", "game", "format"):
        for value in NOT_A_TEXT:
            found[f"{key}={value[:10]}"] = Case(replaced(LINE_OF[key], f"{key}: {value}"), LINE_OF[key], key)
    for value in NOT_A_BOOLEAN:
        found[f"duplicate={value}"] = Case(replaced(11, f"duplicate: {value}"), 11, "duplicate")
    for value in NOT_A_PATH:
        found[f"database={value}"] = Case(replaced(12, f"database: {value}"), 12, "database")
    for params, field in [
        ("{cannons: -1}", "params.cannons"),
        ("{cannons: 2.5}", "params.cannons"),
        ("{cannons: true}", "params.cannons"),
        ("{cannons: '3'}", "params.cannons"),
        ("{cannons: 4294967296}", "params.cannons"),
        ("{cannons: .inf}", "params.cannons"),
        ("{pirates: 1}", "params.pirates"),
        ("{start_crates: [[9, 9]]}", "params.start_crates"),
        ("{start_crates: 5}", "params.start_crates"),
        ("{side_bonuses: {top: gold}}", "params.side_bonuses"),
        ("[cannons]", "params"),
        ("5", "params"),
    ]:
        found[f"params={params}"] = Case(replaced(15, f"params: {params}"), 15, field)
    for entrant, field in [
        ('{name: "", address: "h:1"}', "name"),
        ('{name: a, address: "h:1"}', "name"),  # a duplicate
        ("{name: c, command: ''}", "command"),
        ('{name: c, command: "python -m \'x"}', "command"),
        ('{name: c, command: "python\\0"}', "command"),
        ('{name: c, command: x, address: "h:1"}', "address"),
        ("{name: c}", ""),
        ('{name: c, address: "h:70000"}', "address"),
        ('{name: c, address: "h"}', "address"),
        ("{name: c, command: x, env: {1X: v}}", "env.1X"),
        ("{name: c, command: x, env: {X: 2}}", "env.X"),
        ("{name: c, command: x, env: {SMTOURNEY_PORT: '1'}}", "env.SMTOURNEY_PORT"),
        ('{name: c, address: "h:1", token: "a\\nb"}', "token"),
        ("{name: c, command: x, token: t}", "token"),
        ("{name: c, command: x, tls: true}", "tls"),
        ('{name: c, address: "h:1", tls: {ca_file: missing.pem}}', "tls.ca_file"),
        ("{name: " + "n" * 65 + ", command: x}", "name"),
        ("{name: c, comand: x}", "comand"),
        ("[c, x]", ""),
    ]:
        found[f"entrant={entrant[:40]}"] = Case(
            replaced(18, f"  - {entrant}"), 18, "entrants[1]" + ("" if not field else f".{field}")
        )
    found["unknown key"] = Case(appended("seeds: 4"), 19, "seeds")
    found["repeated key"] = Case(appended("seed: 4"), 19, "seed")
    found["no players"] = Case(replaced(3, "# players: 2"), 1, "players")
    found["no entrants"] = Case("\n".join(BASE_LINES[:15]) + "\n", 1, "entrants")
    found["one entrant"] = Case("\n".join(BASE_LINES[:17]) + "\n", 16, "entrants")
    found["more players than entrants"] = Case(replaced(3, "players: 3"), 16, "entrants")
    found["schedule too large"] = Case(replaced(5, "rounds: 1000000000"), 5, "rounds")
    found["alias bomb"] = Case(
        appended("bomb:", "  a0: &a0 [x, x, x, x, x, x, x, x, x]")
        + "".join(f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 9)),
        24,
        "bomb.a4",
    )
    found["self reference"] = Case(appended("loop: &l [*l]"), 19, "loop[0]")
    found["deep nesting"] = Case(replaced(15, "params: {x: " + "[" * 500 + "]" * 500 + "}"), 15, "params.x")
    found["syntax error"] = Case(replaced(5, "rounds: [1, 2"), 6, "rounds")
    found["unreadable scalar"] = Case(replaced(6, "seed: !!int nine"), 6, "seed")
    return found


CASES = cases()


def test_the_walk_is_long_enough() -> None:
    assert len(CASES) >= 100


def write(folder: Path, case: Case) -> Path:
    folder.mkdir()
    path = folder / "fuzz.yaml"
    path.write_text(case.text, encoding="utf-8")
    return path


def check(path: Path, case: Case, code: int, output: str) -> None:
    assert code == 2, output
    found = re.fullmatch(rf"error: {re.escape(str(path))}:(\d+): (\S+): .+\n", output, re.DOTALL)
    assert found, f"not 'file:line: field: message': {output!r}"
    assert (int(found[1]), found[2][: len(case.field)]) == (case.line, case.field), output
    assert output.count("\n") == 1
    assert os.listdir(path.parent) == ["fuzz.yaml"], "something was written"


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_spoiled_bracket_is_refused_in_one_line(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    path = write(tmp_path / "case", case)
    started = time.perf_counter()
    code, output = invoke("run", str(path))
    assert time.perf_counter() - started < 5, "took too long to refuse"
    check(path, case, code, output)


def test_real_processes_refuse_a_sample_the_same_way(tmp_path: Path) -> None:
    sample = sorted(CASES)[:: len(CASES) // 6][:6]
    paths = [write(tmp_path / str(i), CASES[name]) for i, name in enumerate(sample)]
    processes = [
        subprocess.Popen(
            [*SMTOURNEY, "run", str(path)],
            env=ENV,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for path in paths
    ]
    try:
        for name, path, process in zip(sample, paths, processes, strict=True):
            output, _ = process.communicate(timeout=60)
            assert "Traceback" not in output
            check(path, CASES[name], process.returncode, output)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.communicate()
