"""Whole tournaments through the command line: determinism, resume, refusal of bad input."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from server.cli import app
from server.tournament.bracket import load_bracket
from server.tournament.runner import schedule_of

from ..standings import decided
from ..tiny_bracket import BRACKET, write_bracket
from .runs import kill_midway

ROOT = Path(__file__).resolve().parents[2]
RUNNER = CliRunner()
STANDINGS_KEYS = [
    "rank",
    "name",
    "mu",
    "sigma",
    "conservative",
    "matches",
    "wins",
    "mean_score",
    "strikes",
    "forfeits",
    "rank_interval",
    "decision_ms",
    "bank_used_ms",
    "faults",
]


def cli(*args: str) -> tuple[int, str]:
    result = RUNNER.invoke(app, list(args))
    return result.exit_code, result.output


def standings_json(db: Path) -> str:
    """The standings' JSON without measured times (tests/standings.py)."""
    code, output = cli("standings", "--db", str(db), "--json")
    assert code == 0, output
    return decided(output)


def stored_match_ids(db: Path) -> list[str]:
    """Stored matches in schedule order ([] while the database is still being created)."""
    with sqlite3.connect(db) as connection:
        try:
            return [row[0] for row in connection.execute('SELECT match_id FROM match ORDER BY "index"')]
        except sqlite3.OperationalError:
            return []


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """An uninterrupted run with one worker: its database and standings JSON."""
    bracket = write_bracket(tmp_path_factory.mktemp("one-worker"))
    code, output = cli("run", str(bracket), "--workers", "1")
    assert code == 0, output
    db = bracket.with_suffix(".db")
    return db, standings_json(db)


def test_standings_json_has_exactly_the_documented_keys(reference: tuple[Path, str]) -> None:
    code, output = cli("standings", "--db", str(reference[0]), "--json")
    assert code == 0, output
    rows = json.loads(output)
    assert [list(row) for row in rows] == [STANDINGS_KEYS] * 3
    assert all(list(row["decision_ms"]) == ["median", "p99", "max"] for row in rows)
    times = [row["decision_ms"] for row in rows]
    assert all(0 < t["median"] <= t["p99"] <= t["max"] for t in times)
    assert all(row["faults"] == {} and row["bank_used_ms"]["max"] >= 0 for row in rows)
    assert [row["rank"] for row in rows] == [1, 2, 3]
    assert rows[0]["name"] == "greedy"
    assert all(row["matches"] == 4 for row in rows)  # 3 tables x 2 seat rotations, each entrant at 2 tables


def test_two_workers_give_byte_identical_standings(reference: tuple[Path, str], tmp_path: Path) -> None:
    bracket = write_bracket(tmp_path)
    code, output = cli("run", str(bracket), "--workers", "2")
    assert code == 0, output
    assert standings_json(bracket.with_suffix(".db")) == reference[1]


def test_fresh_processes_give_byte_identical_standings(reference: tuple[Path, str], tmp_path: Path) -> None:
    """The reference keeps its bots between matches; a new process for every match plays the same."""
    bracket = write_bracket(tmp_path)
    bracket.write_text(bracket.read_text().replace("workers: 1\n", "workers: 1\nfresh_process: true\n"))
    code, output = cli("run", str(bracket))
    assert code == 0, output
    db = bracket.with_suffix(".db")
    assert standings_json(db) == reference[1]
    # Every match launched its own bots: one log file per seat of every match.
    assert len(list((tmp_path / "tiny-logs").glob("r1-*.log"))) == 2 * len(stored_match_ids(db))


def test_kept_bots_play_several_matches_each(reference: tuple[Path, str]) -> None:
    """With one worker, each entrant's bot is launched once and plays all its matches."""
    logs = sorted(path.name for path in (reference[0].parent / "tiny-logs").glob("r1-*.log"))
    assert len(logs) == 3, logs


def test_matches_lists_every_match_in_schedule_order(reference: tuple[Path, str]) -> None:
    code, output = cli("matches", "--db", str(reference[0]), "--json")
    assert code == 0, output
    rows = json.loads(output)
    schedule = schedule_of(load_bracket(write_bracket(reference[0].parent)))
    assert [r["match_id"] for r in rows] == [m.match_id for m in schedule]
    assert all(len(r["seats"]) == 2 and r["end_reason"] == "completed" for r in rows)


def test_rerun_of_a_finished_tournament_plays_nothing(reference: tuple[Path, str]) -> None:
    db = reference[0]
    before = stored_match_ids(db)
    code, output = cli("run", str(db.with_suffix(".yaml")))
    assert code == 0, output
    assert stored_match_ids(db) == before
    assert standings_json(db) == reference[1]


def test_sigkill_then_resume_matches_an_uninterrupted_run(
    reference: tuple[Path, str], tmp_path: Path, tag: str
) -> None:
    bracket = write_bracket(tmp_path, tag)
    db = bracket.with_suffix(".db")
    kill_midway(bracket, db, tag, 2, "--workers", "2")
    interrupted = stored_match_ids(db)
    assert 2 <= len(interrupted) < 6

    code, output = cli("run", str(bracket))
    assert code == 0, output
    resumed = stored_match_ids(db)
    assert len(resumed) == len(set(resumed)) == 6
    assert set(interrupted) <= set(resumed)
    assert standings_json(db) == reference[1]


def test_invalid_bracket_exits_2_names_the_line_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BRACKET.format(tag="x", workers=1).replace("rounds: 1", "rounds: 1\ncolour: blue"))
    code, output = cli("run", str(path))
    assert code == 2
    assert f"{path}:5: colour: unknown key" in output
    assert not path.with_suffix(".db").exists()


def test_a_database_from_another_bracket_is_refused(reference: tuple[Path, str], tmp_path: Path) -> None:
    bracket = write_bracket(tmp_path)
    bracket.write_text(bracket.read_text().replace("seed: 99", "seed: 100"))
    code, output = cli("run", str(bracket), "--db", str(reference[0]))
    assert code == 1
    assert "different bracket" in output
    assert "nothing was played" in output


def test_foreign_and_newer_databases_are_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    before = foreign.read_bytes()
    code, output = cli("standings", "--db", str(foreign))
    assert code == 1 and "not a smtourney database" in output
    assert foreign.read_bytes() == before and not list(tmp_path.glob("foreign.db-*"))

    newer = tmp_path / "newer.db"
    bracket = write_bracket(tmp_path)
    from server.store.repository import Store

    Store.open(newer, create=True).close()
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE schema_info SET version = version + 1")
    before = newer.read_bytes()
    code, output = cli("run", str(bracket), "--db", str(newer))
    assert code == 1 and "newer smtourney" in output.replace("\n", " ")
    assert newer.read_bytes() == before

    code, output = cli("standings", "--db", str(tmp_path / "missing.db"))
    assert code == 1 and "no such database" in output

    text_file = tmp_path / "text.db"
    text_file.write_text("hello")
    code, output = cli("matches", "--db", str(text_file))
    assert code == 1 and "not a SQLite database" in output
