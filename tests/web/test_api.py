"""The JSON API over a real database: what the commands print, the same filters as the pages, errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from server.cli import app as cli_app
from server.replay import REPLAY_FORMAT, REPLAY_VERSION

from .conftest import fetch


def cli_json(*args: str) -> object:
    result = CliRunner().invoke(cli_app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_tournaments_are_listed(base_url: str) -> None:
    (tournament,) = fetch(f"{base_url}/api/tournaments").json()
    assert tournament["name"] == "web-tiny"
    assert (tournament["game"], tournament["entrants"], tournament["matches"]) == ("saint_malo", 3, 6)


def test_standings_are_those_of_the_standings_command(
    base_url: str, tournament_db: Path, tournament_id: int
) -> None:
    data = fetch(f"{base_url}/api/tournaments/{tournament_id}").json()
    assert data["standings"] == cli_json("standings", "--db", str(tournament_db), "--json")


def test_rating_history_starts_at_the_prior_and_ends_at_the_standings(
    base_url: str, tournament_id: int
) -> None:
    data = fetch(f"{base_url}/api/tournaments/{tournament_id}").json()
    matches = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches").json()
    history = data["rating_history"]
    assert sorted(history) == ["faulty", "greedy", "random"]
    for standing in data["standings"]:
        name = standing["name"]
        played = [n for n, m in enumerate(matches, start=1) if name in {s["name"] for s in m["seats"]}]
        points = history[name]
        assert points[0] == {"number": 0, "match_index": None, "mu": 25.0, "sigma": 25 / 3}
        assert [p["number"] for p in points] == [0, *played] and len(played) == standing["matches"]
        assert round(points[-1]["mu"], 4) == standing["mu"]
        assert round(points[-1]["sigma"], 4) == standing["sigma"]


def test_matches_are_those_of_the_matches_command(
    base_url: str, tournament_db: Path, tournament_id: int
) -> None:
    listed = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches").json()
    printed = cli_json("matches", "--db", str(tournament_db), "--json")
    assert isinstance(printed, list)
    assert [m["match_id"] for m in listed] == [m["match_id"] for m in printed]
    for mine, theirs in zip(listed, printed, strict=True):
        assert mine["seats"] == theirs["seats"]


def test_filters_pick_matches_by_one_seat(base_url: str, tournament_id: int) -> None:
    url = f"{base_url}/api/tournaments/{tournament_id}/matches"
    every = fetch(url).json()
    greedy_seat0 = fetch(f"{url}?entrant=greedy&seat=0").json()
    assert greedy_seat0 == [m for m in every if m["seats"][0]["name"] == "greedy"] and len(greedy_seat0) == 2
    best = max(s["score"] for m in every for s in m["seats"])
    top = fetch(f"{url}?score_min={best}").json()
    assert top and all(any(s["score"] == best for s in m["seats"]) for m in top)
    assert fetch(f"{url}?score_min={best + 1}").json() == []
    assert fetch(f"{url}?entrant=random&score_max=-1000").json() == []
    assert fetch(f"{url}?strikes=0&entrant=&seat=").json() == every  # empty fields mean "any"
    struck = fetch(f"{url}?strikes=1").json()
    assert struck == [m for m in every if any(s["name"] == "faulty" for s in m["seats"])] and len(struck) == 4
    assert fetch(f"{url}?entrant=faulty&strikes=3").json() == struck
    assert fetch(f"{url}?entrant=greedy&strikes=1").json() == []


def test_a_filter_that_is_not_a_number_is_a_400(base_url: str, tournament_id: int) -> None:
    reply = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches?seat=first")
    assert reply.status == 400
    assert reply.json() == {"error": "seat must be a whole number, got 'first'"}


def test_replay_is_in_the_replay_format(base_url: str, tournament_id: int, match_ids: list[str]) -> None:
    replay = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches/{match_ids[0]}").json()
    assert (replay["format"], replay["version"]) == (REPLAY_FORMAT, REPLAY_VERSION)
    assert replay["match"]["id"] == match_ids[0] and replay["match"]["tournament"] == "web-tiny"
    assert replay["moments"][0]["step"] is None and len(replay["moments"]) > 100


def test_unknown_tournament_and_match_are_404s(base_url: str, tournament_id: int) -> None:
    for path, message in [
        ("/api/tournaments/99", "there is no tournament 99 in this database"),
        (
            f"/api/tournaments/{tournament_id}/matches/nope",
            "there is no match 'nope' in tournament 'web-tiny'",
        ),
        ("/api/tournaments/99/matches", "there is no tournament 99 in this database"),
        ("/api/tournaments/x", "there is no page at /api/tournaments/x"),
        ("/api/nothing", "there is no page at /api/nothing"),
    ]:
        reply = fetch(base_url + path)
        assert (reply.status, reply.content_type) == (404, "application/json"), path
        assert reply.json() == {"error": message}
