"""``smtourney verify``: stored matches re-simulate, and any tampering is caught where it is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from server.cli import app
from server.record import StepRecord

from ..stored_steps import BROKEN_BLOCKS, overwrite_block, replace_step, rewrite_step

RUNNER = CliRunner()


def verify(db: Path, *match_ids: str) -> tuple[int, str]:
    result = RUNNER.invoke(app, ["verify", "--db", str(db), *match_ids])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def execute(db: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return list(connection.execute(sql, args))


def test_every_stored_match_verifies(tournament_db: Path) -> None:
    code, output = verify(tournament_db)
    assert code == 0, output
    assert "6 matches checked, 6 ok, 0 failed" in output
    assert output.count("ok   web-tiny/") == 6


def test_a_tampered_die_fails_at_that_die(db_copy: Path) -> None:
    def other_die(step: StepRecord) -> None:
        step.step["faces"][0] = (step.step["faces"][0] + 1) % 6

    seq = rewrite_step(db_copy, "r1-t002-s1", lambda step: step.kind == "chance" and step.seq > 40, other_die)
    code, output = verify(db_copy)
    assert code == 1
    assert f"FAIL web-tiny/r1-t002-s1: at step {seq} (chance, turn " in output
    assert "but the match seed gives" in output
    assert "ok   web-tiny/r1-t002-s0" in output
    assert "6 matches checked, 5 ok, 1 failed" in output


def test_a_changed_decision_is_caught(db_copy: Path) -> None:
    seq = rewrite_step(
        db_copy,
        "r1-t002-s0",
        lambda step: step.source == "bot" and step.kind == "choose",
        replace_step({"type": "keep", "reroll": 0}),
    )
    code, output = verify(db_copy, "r1-t002-s0")
    assert code == 1
    assert f"at step {seq} (choose by seat" in output
    assert "illegal step" in output


def test_a_strike_substitution_must_be_the_safe_default(db_copy: Path) -> None:
    seq = rewrite_step(
        db_copy,
        "r1-t002-s0",
        lambda step: step.source == "default" and step.kind == "keep",
        replace_step({"type": "keep", "reroll": 31}),
    )
    code, output = verify(db_copy, "r1-t002-s0")
    assert code == 1
    assert f"at step {seq} (keep by seat" in output
    assert "is not the safe default" in output


def test_a_strike_without_its_reason_is_caught(db_copy: Path) -> None:
    def forget_strike(step: StepRecord) -> None:
        step.strike = None

    seq = rewrite_step(db_copy, "r1-t002-s0", lambda step: step.source == "default", forget_strike)
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


@pytest.mark.parametrize("block", BROKEN_BLOCKS.values(), ids=BROKEN_BLOCKS.keys())
def test_a_corrupted_block_is_a_clear_failure(db_copy: Path, block: bytes) -> None:
    overwrite_block(db_copy, "r1-t002-s1", block)
    code, output = verify(db_copy)
    assert code == 1
    assert "corrupted replay data in the steps of match r1-t002-s1: " in output
    assert "6 matches checked, 5 ok, 1 failed" in output


def test_unknown_match_and_bad_databases_are_clear_errors(tournament_db: Path, tmp_path: Path) -> None:
    code, output = verify(tournament_db, "r9-t999-s0")
    assert code == 1 and "no match 'r9-t999-s0' in any tournament" in output
    code, output = verify(tmp_path / "missing.db")
    assert code == 1 and "no such database" in output
    foreign = tmp_path / "foreign.db"
    execute(foreign, "CREATE TABLE notes (body TEXT)")
    code, output = verify(foreign)
    assert code == 1 and "not a smtourney database" in output

