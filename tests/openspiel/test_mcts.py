"""OpenSpiel's MCTS as an entrant: sandboxed, it beats the random bot at tic-tac-toe and Connect Four
in brackets from the repository, and it plays only what it can rebuild from a request (perfect
information)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots.openspiel.mcts import MctsBot

from ..server.conftest import ROOT
from .test_commands import _smtourney


def test_it_plays_the_sequential_perfect_information_games_only() -> None:
    assert MctsBot.plays("openspiel:connect_four") and MctsBot.plays("openspiel:tic_tac_toe")
    assert "openspiel:tic_tac_toe" in MctsBot.games
    for game in ("openspiel:kuhn_poker", "openspiel:goofspiel", "openspiel:no_such_game", "saint_malo"):
        assert not MctsBot.plays(game), game


@pytest.mark.parametrize(("bracket", "matches"), [("tic-tac-toe", 10), ("connect-four", 6)])
def test_the_brackets_rank_mcts_first_and_verify(tmp_path: Path, bracket: str, matches: int) -> None:
    run = _smtourney(
        "run", str(ROOT / "tournaments" / f"openspiel-{bracket}.yaml"), "--db", "t.db", cwd=tmp_path
    )
    assert run.returncode == 0, run.stdout + run.stderr
    verify = _smtourney("verify", "--db", "t.db", cwd=tmp_path)
    checked = f"{matches} matches checked, {matches} ok, 0 failed"
    assert verify.returncode == 0 and checked in verify.stdout, verify.stdout
    standings = _smtourney("standings", "--db", "t.db", "--json", cwd=tmp_path)
    rows = json.loads(standings.stdout)
    assert [row["name"] for row in rows] == ["mcts", "random"]
    mcts, random = rows
    assert mcts["mean_score"] > 0 > random["mean_score"], rows
