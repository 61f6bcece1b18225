"""The secrecy audit over the wire: real tournaments between real bot processes, and every request
each bot received checked against the engine's full state (no other seat's secrets, no deck order,
no seed, decision ids counting the seat's own decisions only)."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sdk.games.registry import get_game
from server.resimulate import resimulate

from .example_install import install_example_game, installed_games_with_example, more_listed_games
from .wire_audit import audit, stored_records

TOURNAMENT_SEED = 8_127_394_019_273_451
#: Every installed game, the example's included: a game without secrets is audited too (its requests
#: must still be its seats' observations, with no seed and no deck order).
GAMES = installed_games_with_example()
#: The families' games left out of the default run's sample, audited in the slow run.
PARAMS = [*GAMES, *(pytest.param(name, marks=pytest.mark.slow) for name in more_listed_games())]


def _bracket(game: str, rounds: int, record_dir: Path) -> str:
    entrants = "\n".join(
        f"  - name: rec-{letter}\n    command: python -m tests.bots.recording_bot\n"
        f"    env: {{SMTOURNEY_RECORD_DIR: '{record_dir}'}}\n"
        # The recording bot writes what it received into a folder of the organiser's: outside the
        # sandbox, whose bots can write nowhere but their own /tmp. The wire is the same either way.
        "    sandbox: false"
        for letter in "abcd"
    )
    return (
        f"name: audit\ngame: {game}\nplayers: {get_game(game).min_players}\nrounds: {rounds}\n"
        f"seed: {TOURNAMENT_SEED}\nworkers: 2\nentrants:\n{entrants}\n"
    )


def play(game: str, rounds: int, tmp_path: Path) -> tuple[Path, Path]:
    """Play the audit bracket; return the database and the folder of received requests."""
    record_dir = tmp_path / "requests"
    record_dir.mkdir()
    (tmp_path / "audit.yaml").write_text(_bracket(game, rounds, record_dir))
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(install_example_game()), str(root)])}
    run = subprocess.run(
        [sys.executable, "-m", "server", "run", "audit.yaml", "--db", "audit.db"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return tmp_path / "audit.db", record_dir


def players_of(one_round: tuple[Path, Path]) -> int:
    return len(next(stored_records(one_round[0])).seats)


def _first_game_where_seats_differ(db: Path, look: str) -> Any:
    """The plugin of the first stored match, when seats 0 and 1 are shown something different by its
    ``look`` (``observe`` or ``view``) at some step: else showing one seat's in place of another's, or
    everything, hides nothing, and the test is skipped."""
    record = next(stored_records(db))
    plugin = get_game(record.game)
    shown = getattr(plugin, look)
    differs: list[bool] = []
    resimulate(record, lambda step, action, state: differs.append(shown(state, 0) != shown(state, 1)))
    if not any(differs):
        pytest.skip(f"{record.game}: every seat sees the same, so its secrets cannot be shown")
    return plugin


@pytest.fixture(scope="module", params=PARAMS)
def one_round(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return play(request.param, 1, tmp_path_factory.mktemp("audit"))


def test_every_request_holds_only_what_its_seat_may_know(one_round: tuple[Path, Path]) -> None:
    matches, requests = audit(*one_round, TOURNAMENT_SEED)
    # Every match asks each seat at least once (a one-shot matrix game asks each seat exactly once).
    if players_of(one_round) == 2:
        assert matches == 12 and requests >= 12 * 2
    else:  # a game of more seats than two (bridge): fewer, longer matches between the four entrants
        assert matches > 0 and requests >= matches * 2


def test_the_audit_catches_a_request_that_was_not_the_observation(
    one_round: tuple[Path, Path], tmp_path: Path
) -> None:
    db, record_dir = one_round
    tampered = tmp_path / "requests"
    tampered.mkdir()
    first = sorted(record_dir.glob("*.jsonl"))[0]
    lines = first.read_text().splitlines()
    entry = json.loads(lines[0])
    raw = base64.b64decode(entry["bytes"])
    entry["bytes"] = base64.b64encode(raw + b"\xf8\x07\x01").decode()  # one more field rides along
    for path in record_dir.glob("*.jsonl"):
        (tampered / path.name).write_text(path.read_text())
    (tampered / first.name).write_text("\n".join([json.dumps(entry), *lines[1:]]))
    with pytest.raises(AssertionError, match="is not the seat's observation"):
        audit(db, tampered, TOURNAMENT_SEED)


def test_the_audit_catches_an_observation_that_shows_hidden_state(
    one_round: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, record_dir = one_round
    plugin = _first_game_where_seats_differ(db, "observe")
    honest = plugin.observe
    monkeypatch.setattr(plugin, "observe", lambda state, seat: honest(state, (seat + 1) % 2))
    with pytest.raises(AssertionError):
        audit(db, record_dir, TOURNAMENT_SEED)


def test_the_audit_catches_a_spectator_view_that_shows_hidden_state(
    one_round: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, record_dir = one_round
    plugin = _first_game_where_seats_differ(db, "view")
    monkeypatch.setattr(plugin, "spectator_view", lambda state: plugin.view(state, None))
    with pytest.raises(AssertionError, match="the spectator view shows"):
        audit(db, record_dir, TOURNAMENT_SEED)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_audit_holds_over_a_hundred_matches(game: str, tmp_path: Path) -> None:
    matches, requests = audit(*play(game, 9, tmp_path), TOURNAMENT_SEED)
    assert matches == 108 and requests >= 108 * 2  # each seat asked at least once a match (Kuhn: 2.3)
