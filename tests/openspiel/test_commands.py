"""OpenSpiel games from the command line: listed, played through gRPC by sandboxed bots, and a
bracket from the repository run and verified."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from server.store.repository import Store

from ..server.conftest import ROOT


def _smtourney(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


#: Games the admission run must admit: the poker, dice, bidding, connection, sowing and race games
#: organisers ask for first.
BAR = (
    "kuhn_poker",
    "leduc_poker",
    "liars_dice",
    "goofspiel",
    "tic_tac_toe",
    "connect_four",
    "hex",
    "oware",
    "backgammon",
    "chess",
)


def test_the_listed_openspiel_games_are_shown_with_their_players(tmp_path: Path) -> None:
    listed = _smtourney("games", "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    games = {game["name"]: game for game in json.loads(listed.stdout)}
    assert games["openspiel:tic_tac_toe"]["max_players"] == 2
    assert sum(name.startswith("openspiel:") for name in games) >= 60
    for name in BAR:
        assert f"openspiel:{name}" in games, f"{name} is not admitted"
    assert [d["kind"] for d in games["openspiel:kuhn_poker"]["decisions"]] == ["spiel_action"]


def test_the_kuhn_bracket_runs_and_verifies(tmp_path: Path) -> None:
    bracket = ROOT / "tournaments" / "openspiel-kuhn.yaml"
    run = _smtourney("run", str(bracket), "--db", "k.db", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    verify = _smtourney("verify", "--db", "k.db", cwd=tmp_path)
    assert verify.returncode == 0, verify.stdout
    assert "12 matches checked, 12 ok, 0 failed" in verify.stdout


def test_a_wrong_parameter_in_a_bracket_is_one_line(tmp_path: Path) -> None:
    text = (ROOT / "tournaments" / "openspiel-kuhn.yaml").read_text()
    (tmp_path / "b.yaml").write_text(text.replace("players: 2\n", "players: 2\nparams:\n  cards: 3\n"))
    run = _smtourney("run", "b.yaml", "--db", "k.db", cwd=tmp_path)
    assert run.returncode == 2
    assert "Unknown parameter 'cards'" in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_bot_check_checks_a_sandboxed_bot_at_an_openspiel_game(tmp_path: Path) -> None:
    check = _smtourney("bot", "check", "python -m bots.random", "--game", "openspiel:kuhn_poker", cwd=ROOT)
    lines = check.stdout.strip().splitlines()
    assert check.returncode == 0, check.stdout + check.stderr
    assert lines and all(line.startswith("PASS ") for line in lines), check.stdout
    assert any(line.startswith("PASS SpielAction") for line in lines), check.stdout
    unknown = _smtourney("bot", "check", "python -m bots.random", "--game", "openspiel:no_game", cwd=tmp_path)
    assert (unknown.returncode, unknown.stderr) == (2, "error: --game: unknown OpenSpiel game 'no_game'\n")


def test_the_goofspiel_bracket_asks_every_bid_of_a_turn_of_all_seats_together(tmp_path: Path) -> None:
    bracket = ROOT / "tournaments" / "openspiel-goofspiel.yaml"
    run = _smtourney("run", str(bracket), "--db", "g.db", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    verify = _smtourney("verify", "--db", "g.db", cwd=tmp_path)
    assert verify.returncode == 0 and "6 matches checked, 6 ok, 0 failed" in verify.stdout, verify.stdout
    store = Store.open(tmp_path / "g.db")
    try:
        tournament = store.tournament("openspiel-goofspiel")
        assert tournament is not None and tournament.id is not None
        for match, _ in store.matches(tournament.id):
            record = store.load_record(tournament.id, match.match_id)
            assert record is not None
            groups: dict[int | None, set[int | None]] = {}
            for step in record.steps:
                if step.kind != "chance":
                    groups.setdefault(step.asked_at, set()).add(step.seat)
            assert None not in groups, "a bid was asked alone"
            assert all(seats == {0, 1, 2} for seats in groups.values()), groups
            assert len(groups) == 3  # a group per prize card but the last, which OpenSpiel plays itself
    finally:
        store.close()


def test_the_leduc_bracket_ranks_cfr_first_by_matches_of_twenty_hands(tmp_path: Path) -> None:
    bracket = ROOT / "tournaments" / "openspiel-leduc.yaml"
    run = _smtourney("run", str(bracket), "--db", "l.db", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    verify = _smtourney("verify", "--db", "l.db", cwd=tmp_path)
    assert verify.returncode == 0 and "20 matches checked, 20 ok, 0 failed" in verify.stdout, verify.stdout
    standings = _smtourney("standings", "--db", "l.db", "--json", cwd=tmp_path)
    assert standings.returncode == 0, standings.stderr
    first, second = rows = json.loads(standings.stdout)
    assert (first["name"], second["name"]) == ("cfr", "random"), rows
    assert first["wins"] > second["wins"] and first["mean_score"] > 0, rows
