"""``benchmarks/openspiel.py`` runs from the command line and prints its figures as one JSON object."""

from __future__ import annotations

import json
import subprocess
import sys

from ..server.conftest import ROOT


def test_the_benchmark_prints_every_figure_as_json_for_kuhn_poker() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/openspiel.py",
            "--game",
            "kuhn_poker",
            "--rounds",
            "1",
            "--games",
            "5",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert (figures["game"], figures["players"]) == ("openspiel:kuhn_poker", 2)
    for transport in ("grpc", "inprocess"):
        assert figures[transport]["matches"] == 2 and figures[transport]["matches_per_min"] > 0
    assert figures["pyspiel"]["decisions_per_s"] > 0 and figures["pyspiel"]["cpp_games_per_s"] > 0
    assert 2 <= figures["pyspiel"]["decisions_per_game"] <= 3
    assert figures["adapter"]["us_per_decision"] > 0 and 2 <= figures["adapter"]["decisions_per_game"] <= 3


def test_a_game_that_is_not_listed_is_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "benchmarks/openspiel.py", "--game", "no_such_game", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: --game: openspiel:no_such_game is not a listed game (smtourney games)\n"
