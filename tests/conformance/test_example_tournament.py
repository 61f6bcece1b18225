"""The example game, installed as a user installs a plugin, runs a real tournament end to end:
`smtourney games` lists it, `run` plays it with the generic random bot, `verify` re-simulates it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .example_install import install_example_game

BRACKET = """\
name: auction-demo
game: blind_auction
players: 2
rounds: 1
seed: 5
params:
  prizes: 4
entrants:
  - name: random-a
    command: python -m bots.random
  - name: random-b
    command: python -m bots.random
  - name: random-c
    command: python -m bots.random
"""


def _smtourney(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(install_example_game()), os.getcwd()])}
    return subprocess.run(
        [sys.executable, "-m", "server", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_example_game_plays_a_tournament_with_no_change_elsewhere(tmp_path: Path) -> None:
    listed = _smtourney("games", "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    auction = {game["name"]: game for game in json.loads(listed.stdout)}["blind_auction"]
    assert [d["kind"] for d in auction["decisions"]] == ["bid", "claim"]

    (tmp_path / "auction.yaml").write_text(BRACKET)
    run = _smtourney("run", "auction.yaml", "--db", "t.db", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    standings = _smtourney("standings", "--db", "t.db", "--json", cwd=tmp_path)
    rows = json.loads(standings.stdout)
    assert sorted(row["name"] for row in rows) == ["random-a", "random-b", "random-c"]
    assert all(row["matches"] == 4 and row["forfeits"] == 0 and row["strikes"] == 0 for row in rows)
    verify = _smtourney("verify", "--db", "t.db", cwd=tmp_path)
    assert verify.returncode == 0, verify.stdout
    assert "6 matches checked, 6 ok, 0 failed" in verify.stdout
