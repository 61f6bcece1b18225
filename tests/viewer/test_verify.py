"""``smtourney verify``: stored matches re-simulate, and any tampering is caught where it is."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from server.cli import app

RUNNER = CliRunner()


def verify(db: Path, *match_ids: str) -> tuple[int, str]:
    result = RUNNER.invoke(app, ["verify", "--db", str(db), *match_ids])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def execute(db: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return list(connection.execute(sql, args))


def event(db: Path, match_id: str, where: str) -> tuple[int, int, str]:
    """(row id, seq, step JSON) of the first event of ``match_id`` matching ``where``."""
    rows = execute(
        db,
        "SELECT event.id, event.seq, event.step_json FROM event JOIN match ON match.id = event.match_pk "
        f"WHERE match.match_id = ? AND {where} ORDER BY event.seq LIMIT 1",
        match_id,
    )
    assert rows, where
    row_id, seq, step = rows[0]
    assert isinstance(row_id, int) and isinstance(seq, int) and isinstance(step, str)
    return row_id, seq, step


def test_every_stored_match_verifies(tournament_db: Path) -> None:
    code, output = verify(tournament_db)
    assert code == 0, output
    assert "6 matches checked, 6 ok, 0 failed" in output
    assert output.count("ok   web-tiny/") == 6


def test_a_tampered_die_fails_at_that_die(db_copy: Path) -> None:
    row_id, seq, step_json = event(db_copy, "r1-t002-s1", "event.kind = 'chance' AND event.seq > 40")
    step = json.loads(step_json)
    step["faces"][0] = (step["faces"][0] + 1) % 6
    execute(db_copy, "UPDATE event SET step_json = ? WHERE id = ?", json.dumps(step), row_id)
    code, output = verify(db_copy)
    assert code == 1
    assert f"FAIL web-tiny/r1-t002-s1: at step {seq} (chance, turn " in output
    assert "but the match seed gives" in output
    assert "ok   web-tiny/r1-t002-s0" in output
    assert "6 matches checked, 5 ok, 1 failed" in output


def test_a_changed_decision_is_caught(db_copy: Path) -> None:
    row_id, seq, _ = event(db_copy, "r1-t002-s0", "event.source = 'bot' AND event.kind = 'choose'")
    execute(db_copy, "UPDATE event SET step_json = ? WHERE id = ?", '{"type":"keep","reroll":0}', row_id)
    code, output = verify(db_copy, "r1-t002-s0")
    assert code == 1
    assert f"at step {seq} (choose by seat" in output
    assert "illegal step" in output


def test_a_strike_substitution_must_be_the_safe_default(db_copy: Path) -> None:
    row_id, seq, _ = event(db_copy, "r1-t002-s0", "event.source = 'default' AND event.kind = 'keep'")
    execute(db_copy, "UPDATE event SET step_json = ? WHERE id = ?", '{"type":"keep","reroll":31}', row_id)
    code, output = verify(db_copy, "r1-t002-s0")
    assert code == 1
    assert f"at step {seq} (keep by seat" in output
    assert "is not the safe default" in output


def test_a_strike_without_its_reason_is_caught(db_copy: Path) -> None:
    row_id, seq, _ = event(db_copy, "r1-t002-s0", "event.source = 'default'")
    execute(db_copy, "UPDATE event SET strike = NULL WHERE id = ?", row_id)
    code, output = verify(db_copy, "r1-t002-s0")
    assert code == 1
    assert f"at step {seq}" in output and "which strike it replaces" in output


def test_a_changed_final_score_is_caught(db_copy: Path) -> None:
    execute(
        db_copy,
        "UPDATE seat SET score = score + 1 WHERE seat = 0 AND match_pk = "
        "(SELECT id FROM match WHERE match_id = 'r1-t002-s1')",
    )
    code, output = verify(db_copy)
    assert code == 1
    assert "FAIL web-tiny/r1-t002-s1: after the last step: scores" in output


def test_a_corrupted_row_is_a_clear_failure(db_copy: Path) -> None:
    row_id, seq, _ = event(db_copy, "r1-t002-s1", "event.seq = 7")
    execute(db_copy, "UPDATE event SET step_json = '{not json' WHERE id = ?", row_id)
    code, output = verify(db_copy)
    assert code == 1
    assert f"corrupted replay data in event {seq} of match r1-t002-s1" in output


def test_unknown_match_and_bad_databases_are_clear_errors(tournament_db: Path, tmp_path: Path) -> None:
    code, output = verify(tournament_db, "r9-t999-s0")
    assert code == 1 and "no match 'r9-t999-s0' in any tournament" in output
    code, output = verify(tmp_path / "missing.db")
    assert code == 1 and "no such database" in output
    foreign = tmp_path / "foreign.db"
    execute(foreign, "CREATE TABLE notes (body TEXT)")
    code, output = verify(foreign)
    assert code == 1 and "not a smtourney database" in output


def test_a_database_of_the_previous_schema_is_migrated_and_every_match_still_verifies(db_copy: Path) -> None:
    """Schema 2 had no ``asked_at``: such a database opens, gains the column, and verifies as before."""
    execute(db_copy, "ALTER TABLE event DROP COLUMN asked_at")
    execute(db_copy, "UPDATE schema_info SET version = 2")
    code, output = verify(db_copy)
    assert code == 0, output
    assert "6 matches checked, 6 ok, 0 failed" in output
    assert execute(db_copy, "SELECT version FROM schema_info") == [(3,)]
    assert execute(db_copy, "SELECT COUNT(*) FROM event WHERE asked_at IS NOT NULL") == [(0,)]
