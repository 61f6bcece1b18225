"""Ladder files: loaded with their defaults, or refused with one line naming file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.ladder.config import load_ladder
from server.tournament.bracket_errors import BracketError

from .conftest import cli

GOOD = """\
name: spring ladder
game: saint_malo
players: 3
time_control:
  decision_ms: 500
matchmaking:
  workers: 2
  min_quality: 0.1
initial_rating:
  mu: 30
max_active_bots: 2
submission_mb: 4
seed: 11
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "spring.yaml"
    path.write_text(text)
    return path


def test_a_ladder_file_loads_with_defaults_and_the_database_beside_it(tmp_path: Path) -> None:
    ladder = load_ladder(write(tmp_path, GOOD))
    assert (ladder.name, ladder.game, ladder.players, ladder.seed) == ("spring ladder", "saint_malo", 3, 11)
    assert ladder.time_control.decision_ms == 500 and ladder.time_control.bank_ms == 10_000
    assert (ladder.matchmaking.workers, ladder.matchmaking.min_quality, ladder.matchmaking.candidates) == (
        2,
        0.1,
        32,
    )
    assert ladder.initial_rating.mu == 30 and ladder.initial_rating.sigma == pytest.approx(25 / 3)
    assert ladder.max_active_bots == 2 and ladder.submission_bytes == 4 * 1024 * 1024
    assert ladder.database_path == tmp_path / "spring.db"
    assert ladder.sandbox is True
    assert ladder.params  # normalized by the game, defaults filled in
    assert ladder.referee_config().time_control.decision_ms == 500


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("players: 3", "players: 9"), ":3: players: saint_malo is played by"),
        (("seed: 11", "sed: 11"), ":13: sed: unknown key 'sed' (did you mean 'seed'?)"),
        (
            ("  min_quality: 0.1", "  min_quality: 1.5"),
            ":8: matchmaking.min_quality: must be less than 1, got 1.5",
        ),
        (
            ("  workers: 2", "  wrkers: 2"),
            ":7: matchmaking.wrkers: unknown key 'wrkers' (did you mean 'workers'?)",
        ),
        (("max_active_bots: 2", "max_active_bots: 0"), ":11: max_active_bots: must be at least 1, got 0"),
        (("game: saint_malo", "game: chess"), ":2: game: "),
        (("  mu: 30", "  mu: thirty"), ":10: initial_rating.mu: expected a number, got 'thirty'"),
    ],
)
def test_a_bad_field_is_one_line_with_file_line_and_field(
    tmp_path: Path, change: tuple[str, str], expected: str
) -> None:
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(BracketError) as caught:
        load_ladder(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and expected in message and "\n" not in message


def test_a_file_that_is_not_a_mapping_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BracketError, match="expected a mapping of ladder fields, got a list"):
        load_ladder(write(tmp_path, "- a\n- b\n"))


def test_serve_refuses_a_bad_file_with_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("players: 3", "players: 1"))
    code, output = cli("ladder", "serve", str(path), "--port", "0")
    assert code == 2
    assert output.count("\n") == 1 and f"{path}:3: players: " in output and "Traceback" not in output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spring.yaml"]
