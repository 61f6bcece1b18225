"""Every number a bracket sets is bounded, so a bracket that loads is usable to the end: no value
too large for SQLite or protobuf, no endless schedule or timeout, no quiet float-to-int."""

from __future__ import annotations

import json
import sqlite3
import textwrap
import time
from contextlib import closing
from pathlib import Path

import pytest

from server.bounds import (
    MAX_BANK_MS,
    MAX_CPU_SECONDS,
    MAX_DECISION_MS,
    MAX_MEMORY_MB,
    MAX_SEED,
    MAX_STARTUP_S,
    MAX_STRIKES,
    MAX_WORKERS,
)
from server.tournament.bracket import BracketError, load_bracket
from server.tournament.schedule import MAX_ENTRANTS, MAX_MATCHES, ScheduleTooLargeError, make_schedule

from ..commands import invoke, run_process

BASE = "name: t\nplayers: 2\nentrants:\n  - {name: a, command: x}\n  - {name: b, command: x}\n"


def error_of(tmp_path: Path, text: str) -> BracketError:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BracketError) as caught:
        load_bracket(path)
    return caught.value


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ("seed: 18446744073709551616", "seed", f"must be at most {MAX_SEED}, got 18446744073709551616"),
        ("seed: 1.0e+3", "seed", "expected an integer, got 1000.0"),
        ("seed: 0x8000000000000000", "seed", f"must be at most {MAX_SEED}, got 9223372036854775808"),
        ("strikes: 1001", "strikes", f"must be at most {MAX_STRIKES}, got 1001"),
        ("workers: 65", "workers", f"must be at most {MAX_WORKERS}, got 65"),
        ("workers: 2.0", "workers", "expected an integer, got 2.0"),
        ("max_tables: 100001", "max_tables", f"must be at most {MAX_MATCHES}, got 100001"),
        (
            "time_control: {decision_ms: 4294967296}",
            "time_control.decision_ms",
            f"must be at most {MAX_DECISION_MS}, got 4294967296",
        ),
        ("time_control: {decision_ms: 1.5}", "time_control.decision_ms", "expected an integer, got 1.5"),
        (
            "time_control: {bank_ms: 86400001}",
            "time_control.bank_ms",
            f"must be at most {MAX_BANK_MS}, got 86400001",
        ),
        ("time_control: {bank_ms: true}", "time_control.bank_ms", "expected an integer, got true"),
        ("startup_timeout_s: .inf", "startup_timeout_s", "must be a finite number, got inf"),
        ("startup_timeout_s: .nan", "startup_timeout_s", "must be a finite number, got nan"),
        ("startup_timeout_s: 601", "startup_timeout_s", f"must be at most {MAX_STARTUP_S:g}, got 601"),
        ("startup_timeout_s: 0.001", "startup_timeout_s", "must be at least 1, got 0.001"),
        ("startup_timeout_s: true", "startup_timeout_s", "expected a number, got true"),
        ("limits: {memory_mb: 1}", "limits.memory_mb", "must be at least 256, got 1"),
        (
            "limits: {memory_mb: 17592186044416}",
            "limits.memory_mb",
            f"must be at most {MAX_MEMORY_MB}, got 17592186044416",
        ),
        ("limits: {memory_mb: 512.0}", "limits.memory_mb", "expected an integer, got 512.0"),
        ("limits: {cpu_seconds: 1}", "limits.cpu_seconds", "must be at least 5, got 1"),
        (
            "limits: {cpu_seconds: 604801}",
            "limits.cpu_seconds",
            f"must be at most {MAX_CPU_SECONDS}, got 604801",
        ),
        ("limits: {cpu_seconds: false}", "limits.cpu_seconds", "expected an integer, got false"),
        ("params: {cannons: 3.0}", "params.cannons", "expected an integer, got 3.0"),
        ("params: {cannons: true}", "params.cannons", "expected an integer, got true"),
        ("params: {cannons: '4'}", "params.cannons", "expected an integer, got '4'"),
        (
            "params: {cannons: 18446744073709551616}",
            "params.cannons",
            "must be between -9007199254740991 and 9007199254740991, got 18446744073709551616",
        ),
        (
            "params: {cannons: 4294967296}",
            "params.cannons",
            "a bot cannot be sent this value: Value out of range: 4294967296",
        ),
        (
            "params: {start_crates: [[1, 1], [1.0, 2]]}",
            "params.start_crates[1][0]",
            "expected an integer, got 1.0",
        ),
        (
            "params: {start_crates: [[.inf, 1]]}",
            "params.start_crates[0][0]",
            "must be a finite number, got inf",
        ),
        (
            "params: {start_crates: [[1.0e+308, 1]]}",
            "params.start_crates[0][0]",
            "must be between -9007199254740991 and 9007199254740991, got 1e+308",
        ),
        (
            "params: {side_bonuses: {top: true}}",
            "params.side_bonuses",
            "side_bonuses needs one of ('person', 'coins', 'vp') per side",
        ),
    ],
)
def test_out_of_range_and_mistyped_numbers_are_refused(
    tmp_path: Path, extra: str, field: str, message: str
) -> None:
    error = error_of(tmp_path, BASE + extra + "\n")
    assert (error.line, error.field, error.message) == (6, field, message)


def test_a_schedule_too_large_is_refused_at_once_with_its_size(tmp_path: Path) -> None:
    started = time.perf_counter()
    error = error_of(tmp_path, BASE + "rounds: 1000000000\n")
    assert time.perf_counter() - started < 1
    assert (error.line, error.field) == (6, "rounds")
    assert error.message == (
        "the schedule would have 2,000,000,000 matches (1,000,000,000 rounds of 2); "
        f"at most {MAX_MATCHES:,} are played in one tournament"
    )


def test_a_round_too_large_is_blamed_on_the_entrants(tmp_path: Path) -> None:
    entrants = "".join(f"  - {{name: e{i}, command: x}}\n" for i in range(60))
    text = f"name: t\nplayers: 3\nmax_tables: 100000\nentrants:\n{entrants}"
    error = error_of(tmp_path, text)
    assert (error.line, error.field) == (4, "entrants")
    assert error.message.startswith("the schedule would have 102,660 matches (1 rounds of 102,660);")


def test_too_many_entrants_are_refused(tmp_path: Path) -> None:
    entrants = "".join(f"  - {{name: e{i}, command: x}}\n" for i in range(MAX_ENTRANTS + 1))
    error = error_of(tmp_path, f"name: t\nplayers: 2\nentrants:\n{entrants}")
    assert (error.line, error.field, error.message) == (
        3,
        "entrants",
        f"a tournament may have at most {MAX_ENTRANTS} entrants, got {MAX_ENTRANTS + 1}",
    )


def test_make_schedule_refuses_what_it_could_not_finish() -> None:
    with pytest.raises(ScheduleTooLargeError, match="2,000,000,000 matches"):
        make_schedule(2, 2, rounds=1_000_000_000, seed=0)
    with pytest.raises(ScheduleTooLargeError, match=f"at most {MAX_ENTRANTS} entrants"):
        make_schedule(MAX_ENTRANTS + 1, 2, rounds=1, seed=0)


def test_a_bracket_at_every_upper_bound_plays_to_the_end(tmp_path: Path) -> None:
    """The largest seed, clock, strikes and limits reach SQLite, protobuf and setrlimit intact."""
    bracket = tmp_path / "edge.yaml"
    bracket.write_text(
        textwrap.dedent(
            f"""\
            name: edge
            players: 2
            seed: {MAX_SEED}
            time_control: {{decision_ms: {MAX_DECISION_MS}, bank_ms: {MAX_BANK_MS}}}
            strikes: {MAX_STRIKES}
            workers: {MAX_WORKERS}
            max_tables: {MAX_MATCHES}
            startup_timeout_s: {MAX_STARTUP_S}
            limits: {{memory_mb: {MAX_MEMORY_MB}, cpu_seconds: {MAX_CPU_SECONDS}}}
            params: {{cannons: 4294967295}}  # the widest Saint Malo's protocol carries
            entrants:
              - {{name: a, command: python -m bots.random}}
              - {{name: b, command: python -m bots.random}}
            """
        )
    )
    ran = run_process("run", str(bracket), timeout=180)
    assert ran.code == 0, ran.stderr
    code, output = invoke("matches", "--db", str(tmp_path / "edge.db"), "--json")
    rows = json.loads(output)
    assert code == 0 and len(rows) == 2
    assert all(seat["strikes"] == 0 and not seat["forfeited"] for row in rows for seat in row["seats"])
    with closing(sqlite3.connect(tmp_path / "edge.db")) as connection:
        assert connection.execute("SELECT seed FROM tournament").fetchone() == (MAX_SEED,)
