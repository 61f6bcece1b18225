"""The conformance suite runs over the installed games: a game the project declares but has not
installed (a new game before ``pip install -e .``) would be left out silently, so this fails loudly."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdk.games import registry

from ..commands import ROOT


def test_every_game_the_project_declares_is_installed_and_so_checked() -> None:
    missing = registry.declared_but_not_installed()
    assert not missing, "games left out of the conformance tests:\n" + "\n".join(m.hint() for m in missing)


def test_a_declared_game_that_is_not_installed_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "pyproject.toml"
    project.write_text((ROOT / "pyproject.toml").read_text() + 'dice_duel = "dice_duel.plugin:PLUGIN"\n')
    monkeypatch.setattr(registry, "PROJECT_FILE", project)
    with pytest.raises(AssertionError, match=r"game 'dice_duel' .* not installed; reinstall the project"):
        test_every_game_the_project_declares_is_installed_and_so_checked()
