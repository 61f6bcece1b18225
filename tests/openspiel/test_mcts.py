"""OpenSpiel's MCTS as an entrant: sandboxed, it beats the random bot at tic-tac-toe in a bracket
from the repository, and it plays only what it can rebuild from a request (perfect information)."""

from __future__ import annotations

import json
from pathlib import Path

from bots.openspiel.mcts import MctsBot

from ..server.conftest import ROOT
from .test_commands import _smtourney


def test_it_plays_the_sequential_perfect_information_games_only() -> None:
    assert MctsBot.plays("openspiel:connect_four") and MctsBot.plays("openspiel:tic_tac_toe")
    assert "openspiel:tic_tac_toe" in MctsBot.games
    for game in ("openspiel:kuhn_poker", "openspiel:goofspiel", "openspiel:no_such_game", "saint_malo"):
        assert not MctsBot.plays(game), game


def test_the_tic_tac_toe_bracket_ranks_mcts_first_and_verifies(tmp_path: Path) -> None:
    bracket = ROOT / "tournaments" / "openspiel-tic-tac-toe.yaml"
    run = _smtourney("run", str(bracket), "--db", "t.db", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    verify = _smtourney("verify", "--db", "t.db", cwd=tmp_path)
    assert verify.returncode == 0 and "10 matches checked, 10 ok, 0 failed" in verify.stdout, verify.stdout
    standings = _smtourney("standings", "--db", "t.db", "--json", cwd=tmp_path)
    rows = json.loads(standings.stdout)
    assert [row["name"] for row in rows] == ["mcts", "random"]
    mcts, random = rows
    assert mcts["mean_score"] > 0 > random["mean_score"], rows
