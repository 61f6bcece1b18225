"""``smtourney games`` says when the project declares a game that is not installed, and how to mend it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sdk.games import registry

from ..commands import ROOT, invoke

EXTRA_LINE = 'dice_duel = "dice_duel.plugin:PLUGIN"\n'


def test_an_entry_point_declared_but_not_installed_is_named_with_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "pyproject.toml"
    project.write_text((ROOT / "pyproject.toml").read_text() + EXTRA_LINE)
    monkeypatch.setattr(registry, "PROJECT_FILE", project)
    code, output = invoke("games")
    assert code == 0
    assert f"note: game 'dice_duel' (dice_duel.plugin:PLUGIN) is declared in {project}" in output
    assert f"pip install -e {tmp_path}" in output
    code, output = invoke("games", "--json")
    listed = json.loads(output[output.index("\n[") :])  # after the note, the listing of installed games
    assert code == 0 and "dice_duel" not in {game["name"] for game in listed}


def test_running_a_game_declared_but_not_installed_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "pyproject.toml"
    project.write_text((ROOT / "pyproject.toml").read_text() + EXTRA_LINE)
    monkeypatch.setattr(registry, "PROJECT_FILE", project)
    bracket = tmp_path / "duel.yaml"
    bracket.write_text(
        (ROOT / "tournaments" / "demo.yaml").read_text().replace("game: saint_malo", "game: dice_duel")
    )
    code, output = invoke("run", str(bracket), "--db", str(tmp_path / "t.db"))
    assert code == 2
    assert f"game 'dice_duel' (dice_duel.plugin:PLUGIN) is declared in {project} but not installed" in output
    assert f"pip install -e {tmp_path}" in output and "Traceback" not in output
    assert not (tmp_path / "t.db").exists()


def test_the_installed_project_declares_nothing_missing() -> None:
    assert registry.declared_but_not_installed() == []
    code, output = invoke("games")
    assert code == 0 and "note:" not in output
