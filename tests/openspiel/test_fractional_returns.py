"""A game whose returns are fractions (skat's are its game value over 120) is played, stored,
verified and ranked with its returns exactly: no rounding anywhere between OpenSpiel and the
standings, and each bot is told the exact scores at the end of its match."""

from __future__ import annotations

import json
from pathlib import Path

from server.store.repository import Store

from ..server.conftest import ROOT
from .test_commands import _smtourney


def _bracket(results: Path) -> str:
    entrants = "".join(
        f"  - name: bot-{letter}\n    command: python -m tests.bots.result_bot\n"
        f"    env: {{SMTOURNEY_RESULT_DIR: '{results}', PYTHONPATH: '{ROOT}'}}\n"
        # The bot writes what it heard into the test's folder, outside any sandbox.
        "    sandbox: false\n"
        for letter in "abc"
    )
    return f"name: skat\ngame: openspiel:skat\nplayers: 3\nrounds: 1\nseed: 41\nentrants:\n{entrants}"


def test_skat_returns_are_stored_verified_and_told_to_bots_exactly(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (tmp_path / "skat.yaml").write_text(_bracket(results))
    run = _smtourney("run", "skat.yaml", "--db", "s.db", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    verify = _smtourney("verify", "--db", "s.db", cwd=tmp_path)
    assert verify.returncode == 0 and " 0 failed" in verify.stdout, verify.stdout  # returns re-simulated

    store = Store.open(tmp_path / "s.db")
    try:
        tournament = store.tournament()
        assert tournament is not None and tournament.id is not None
        stored = {r.match_id: list(r.scores) for r in store.results(tournament.id)}
    finally:
        store.close()
    assert stored and all(any(score != int(score) for score in scores) for scores in stored.values())
    told = [json.loads(line) for path in results.iterdir() for line in path.read_text().splitlines()]
    assert len(told) == 3 * len(stored)
    assert all(line["scores"] == stored[line["match_id"]] for line in told)

    standings = _smtourney("standings", "--db", "s.db", "--json", cwd=tmp_path)
    assert standings.returncode == 0, standings.stderr
    rows = json.loads(standings.stdout)
    assert sum(row["matches"] for row in rows) == 3 * len(stored)
