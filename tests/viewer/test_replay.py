"""``smtourney replay``: the JSON replay, one turn, the whole match as text, and the keys."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sdk.games import saint_malo as sm
from sdk.games.registry import get_game
from server.cli import app
from server.record import MatchRecord
from server.replay import REPLAY_FORMAT, REPLAY_VERSION, build_replay, moments
from server.store.repository import Store
from server.viewer.browse import navigate
from server.viewer.moments import ReplayText

from ..stored_steps import BROKEN_BLOCKS, overwrite_block, replace_step, rewrite_step

RUNNER = CliRunner()
MATCH = "r1-t002-s0"


def replay(db: Path, *args: str) -> tuple[int, str]:
    result = RUNNER.invoke(app, ["replay", "--db", str(db), *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def stored_record(db: Path, match_id: str = MATCH) -> MatchRecord:
    store = Store.open(db)
    try:
        tournament = store.tournament("web-tiny")
        assert tournament is not None and tournament.id is not None
        record = store.load_record(tournament.id, match_id)
    finally:
        store.close()
    assert record is not None
    return record


def replay_json(db: Path, match_id: str = MATCH) -> dict[str, object]:
    code, output = replay(db, match_id, "--json")
    assert code == 0, output
    data = json.loads(output)
    assert isinstance(data, dict)
    return data


def test_json_replay_has_every_moment_and_matches_the_engine(tournament_db: Path) -> None:
    data = replay_json(tournament_db)
    assert (data["format"], data["version"]) == (REPLAY_FORMAT, REPLAY_VERSION)
    record = stored_record(tournament_db)
    found = data["moments"]
    assert isinstance(found, list) and len(found) == len(record.steps) + 1
    assert found[0]["step"] is None
    for moment, step in zip(found[1:], record.steps, strict=True):
        assert moment["step"]["seq"] == step.seq and moment["step"]["action"] == step.step
        assert moment["step"]["text"]
    # Each drawn position is the engine's own, step for step.
    state = sm.new_game(record.players, sm.Params.from_json(record.params))
    for moment, step in zip(found[1:], record.steps, strict=True):
        state.apply(sm.step_from_json(step.step))
        for city_view, city in zip(moment["view"]["cities"], state.cities, strict=True):
            assert city_view["cells"].count("W") == city.walls.bit_count()
            assert (city_view["vp"], city_view["score"]) == (city.vp, city.final_score())
    final = found[-1]["view"]
    assert [c["score"] for c in final["cities"]] == record.scores
    assert final["phase"] == "over" and final["to_move"] is None
    seats = data["seats"]
    assert isinstance(seats, list)
    assert [s["name"] for s in seats] == ["random", "faulty"]
    struck = [m["step"] for m in found[1:] if m["step"]["strike"]]
    assert len(struck) == seats[1]["strikes"] == 3
    assert all(s["source"] == "default" and s["seat"] == 1 for s in struck)
    assert any(m["step"]["source"] == "fallback" for m in found[1:])


def test_json_replay_is_deterministic(tournament_db: Path) -> None:
    assert replay_json(tournament_db) == replay_json(tournament_db)


def test_one_turn(tournament_db: Path) -> None:
    code, output = replay(tournament_db, MATCH, "--turn", "2")
    assert code == 0, output
    assert "match r1-t002-s0 · web-tiny · Saint Malo · 2 players" in output
    assert "turn 2/" in output
    assert "chance: rolls" in output and "seat 1 faulty:" in output
    assert "seat 0" in output and "seat 1" in output  # both boards


def test_strikes_show_in_the_text(tournament_db: Path) -> None:
    code, output = replay(tournament_db, MATCH)  # not a terminal: every turn is printed
    assert code == 0, output
    assert output.count("[STRIKE: illegal action:") == 3
    assert "[forfeited seat: safe default]" in output
    assert "attack on turn " in output and "strength 1, defences" in output
    assert "turn 1/" in output


def test_bad_input_is_a_clear_error(tournament_db: Path, db_copy: Path, tmp_path: Path) -> None:
    code, output = replay(tournament_db, MATCH, "--turn", "9999")
    assert code == 1 and "turn 9999 is not in this match" in output
    code, output = replay(tournament_db, "nope")
    assert code == 1 and "no match 'nope'" in output
    code, output = replay(tmp_path / "missing.db", MATCH)
    assert code == 1 and "no such database" in output
    overwrite_block(db_copy, MATCH, BROKEN_BLOCKS["truncated"])
    code, output = replay(db_copy, MATCH)
    assert code == 1 and f"corrupted replay data in the steps of match {MATCH}: " in output


def test_a_replay_that_does_not_resimulate_is_refused(db_copy: Path) -> None:
    rewrite_step(
        db_copy, MATCH, lambda step: step.seq == 0, replace_step({"type": "roll", "faces": [6, 6, 6, 6, 6]})
    )
    code, output = replay(db_copy, MATCH)
    assert code == 1 and "does not re-simulate, at step 0 (chance, turn 1): unreadable step" in output


@pytest.fixture(scope="module")
def text(tournament_db: Path) -> ReplayText:
    record = stored_record(tournament_db)
    positions = moments(record)
    return ReplayText(build_replay(record, positions=positions), positions, get_game(record.game))


def test_keys_step_and_jump_by_turn(text: ReplayText) -> None:
    assert navigate(text, 0, "right") == 1
    assert navigate(text, 0, "left") == 0
    assert navigate(text, text.last, "n") == text.last
    assert navigate(text, 5, "home") == 0 and navigate(text, 5, "end") == text.last
    assert navigate(text, 5, "x") == 5
    assert navigate(text, 5, "q") is None
    start_of_two = text.turn_span(2).start
    assert text.turn_at(start_of_two) == 2 and text.turn_at(start_of_two - 1) == 1
    assert navigate(text, 1, "]") == start_of_two
    assert navigate(text, start_of_two + 2, "[") == start_of_two
    assert navigate(text, start_of_two, "[") == text.turn_span(1).start
    assert navigate(text, text.turn_span(text.turns).start, "]") == text.last


def _read(fd: int, until: str, timeout: float = 20.0) -> str:
    """Terminal output up to and including the screen that shows ``until``."""
    seen = ""
    deadline = time.monotonic() + timeout
    while until not in seen and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                seen += os.read(fd, 65536).decode(errors="replace")
            except OSError:
                break
    assert until in seen, seen[-2000:]
    return seen


def test_interactive_viewer_in_a_terminal(tournament_db: Path) -> None:
    """A real pseudo-terminal: arrows step, ] jumps a turn, g goes to a turn, q quits."""
    main, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "replay", MATCH, "--db", str(tournament_db)],
        stdin=child,
        stdout=child,
        stderr=child,
        close_fds=True,
    )
    os.close(child)
    try:
        _read(main, "moment 0/")
        os.write(main, b"\x1b[C")
        _read(main, "moment 1/")
        os.write(main, b"]")
        _read(main, "turn 2/")
        os.write(main, b"g3\r")
        _read(main, "turn 3/")
        os.write(main, b"g999\r")
        _read(main, "there is no turn 999")
        os.write(main, b"q")
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)


def test_html_export_writes_one_self_contained_file(tournament_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "match.html"
    code, output = replay(tournament_db, MATCH, "--html", str(out))
    assert code == 0, output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") or page.lower().startswith("<!doctype html>")
    assert MATCH in page and "faulty" in page
    assert "<script src=" not in page and '<link rel="stylesheet"' not in page
    code, output = replay(tournament_db, MATCH, "--html", str(tmp_path / "no" / "such" / "dir.html"))
    assert code == 1 and "cannot write" in output


CITIES_BRACKET = """\
name: gaps
game: cities
players: 4
rounds: 1
seed: 2026
workers: 1
max_tables: 1
entrants:
  - {name: a, command: python -m bots.random}
  - {name: b, command: python -m bots.random}
  - {name: c, command: python -m bots.random}
  - {name: d, command: python -m bots.random}
"""


def test_a_turn_the_game_passed_without_a_step_is_named_as_such(tmp_path: Path) -> None:
    """Cities moves past a turn where nothing can be decided; asking for it names the turns around it."""
    (tmp_path / "gaps.yaml").write_text(CITIES_BRACKET)
    db = tmp_path / "gaps.db"
    assert RUNNER.invoke(app, ["run", str(tmp_path / "gaps.yaml"), "--db", str(db)]).exit_code == 0
    match_id = "r1-t000-s0"
    code, output = replay(db, match_id, "--json")
    turns = sorted({moment["turn"] for moment in json.loads(output)["moments"]})
    gap = next(turn for turn in range(1, turns[-1]) if turn not in turns)
    code, output = replay(db, match_id, "--turn", str(gap))
    before = max(turn for turn in turns if turn < gap)
    after = min(turn for turn in turns if turn > gap)
    assert code == 1 and f"turn {gap} has no steps" in output
    assert f"nearest turns with steps: {before} and {after}" in output
    code, output = replay(db, match_id, "--turn", str(after))
    assert code == 0 and f"turn {after}/" in output
