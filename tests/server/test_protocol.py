"""The protocol on its own: generated code is current, and a bot needs only the .proto files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sdk import protogen
from server.resimulate import resimulate
from server.seats import SeatSpec

from ..conftest import processes_with
from .conftest import ROOT, launched, play, stub_only_bot


@pytest.mark.parametrize(
    "targets", [[], ["tests/example_game/smtourney_example"]], ids=["built-in", "example"]
)
def test_checked_in_protocol_modules_are_current(targets: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sdk.protogen", "--check", *targets],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_bot_built_from_the_proto_files_alone_plays_a_full_match(tmp_path: Path, tag: str) -> None:
    generated = tmp_path / "generated"
    generated.mkdir()
    # Only the generated modules are importable: not the repository, so not the SDK. The bot's
    # program directory holds both, and the sandbox shows it nothing else of the repository.
    script = stub_only_bot(generated)
    bot = SeatSpec(
        name="stub-only",
        command=f"{sys.executable} {script}",
        env={"PYTHONPATH": str(generated), "SMTOURNEY_TEST_TAG": tag},
    )
    record = play([bot, launched("random", "bots.random", tag=tag)], tmp_path / "logs")
    stub_seat = record.seats[0]
    assert stub_seat.bot == "stub-only 1"
    assert stub_seat.strikes == 0 and not stub_seat.forfeited, stub_seat.faults
    decisions = [s for s in record.steps if s.seat == 0]
    assert {s.kind for s in decisions} >= {"keep", "choose", "rotate", "place"}
    assert all(s.source == "bot" for s in decisions)
    resimulate(record)
    assert processes_with(tag) == []


def test_the_check_catches_a_stale_game_protocol_and_regeneration_mends_it(tmp_path: Path) -> None:
    game = tmp_path / "smtourney_example"
    shutil.copytree(ROOT / "tests" / "example_game" / "smtourney_example", game)

    def protogen(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "sdk.protogen", *args, str(game)]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)

    assert protogen("--check").returncode == 0
    module = game / "protocol" / "auction_pb2.py"
    module.write_text(module.read_text() + "# edited by hand\n")
    stale = protogen("--check")
    assert stale.returncode == 1 and "stale" in stale.stdout
    assert protogen().returncode == 0
    assert "edited by hand" not in module.read_text()
    assert protogen("--check").returncode == 0


def test_a_game_folder_under_sdk_games_is_found_by_name_before_it_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "tests" / "example_game" / "smtourney_example", tmp_path / "dice_duel")
    monkeypatch.setattr(protogen, "GAMES_DIR", tmp_path)
    (tree,) = protogen.trees(["dice_duel"])
    assert tree.proto_dir == (tmp_path / "dice_duel" / "proto").resolve()
    assert tree.out_package == "dice_duel.protocol"
    with pytest.raises(SystemExit, match="no installed game named 'no_such_game'"):
        protogen.trees(["no_such_game"])
