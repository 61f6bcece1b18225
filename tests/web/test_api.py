"""The JSON API over a real database: what the commands print, the same filters as the pages, errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sdk.games.registry import games
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


def test_statistics_are_those_of_the_stats_command(
    base_url: str, tournament_db: Path, tournament_id: int
) -> None:
    data = fetch(f"{base_url}/api/tournaments/{tournament_id}").json()
    assert data["statistics"] == cli_json("stats", "--db", str(tournament_db), "--json")


def test_faults_by_kind_count_every_stored_fault(base_url: str, tournament_id: int) -> None:
    standings = fetch(f"{base_url}/api/tournaments/{tournament_id}").json()["standings"]
    matches = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches").json()
    for row in standings:
        seats = [seat for match in matches for seat in match["seats"] if seat["name"] == row["name"]]
        assert sum(row["faults"].values()) == sum(len(seat["faults"]) for seat in seats)
        assert row["faults"].get("forfeit", 0) == row["forfeits"]
        assert row["faults"].get("illegal_action", 0) == row["strikes"]  # the faulty bot's only fault
    faulty = next(row for row in standings if row["name"] == "faulty")
    assert faulty["faults"]["illegal_action"] > 0 and faulty["forfeits"] > 0


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


def test_each_installed_games_module_is_served(base_url: str) -> None:
    with_module = [p for p in games().values() if p.web_script.is_file()]
    assert with_module, "no installed game has a drawing module"
    for plugin in games().values():
        reply = fetch(f"{base_url}/games/{plugin.name}.js")
        if plugin not in with_module:
            assert reply.status == 404 and "has no drawing module" in reply.body, plugin.name
            continue
        assert reply.status == 200, plugin.name
        assert reply.content_type.startswith("text/javascript"), reply.content_type
        assert reply.body == plugin.web_script.read_text(encoding="utf-8")
        assert f'registerGame("{plugin.name}"' in reply.body


def test_a_module_of_a_game_that_is_not_installed_is_a_404(base_url: str) -> None:
    installed = ", ".join(sorted(games()))
    for path in ["/games/chess.js", "/games/.js"]:
        reply = fetch(base_url + path)
        assert reply.status == 404 and reply.content_type.startswith("text/html"), path
        assert "there is no " in reply.body and "Traceback" not in reply.body
    message = f"there is no game &#39;chess&#39; installed (installed: {installed})"
    assert message in fetch(f"{base_url}/games/chess.js").body


def test_a_seat_replay_shows_only_what_that_seat_saw(
    base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    url = f"{base_url}/api/tournaments/{tournament_id}/matches/{match_ids[0]}"
    everything = fetch(url).json()
    assert everything["viewer_seat"] is None
    assert fetch(f"{url}?seat=").json() == everything  # an empty field means everything, as in forms
    steps = {m["step"]["seq"]: m["step"] for m in everything["moments"][1:]}
    for seat in range(everything["match"]["players"]):
        replay = fetch(f"{url}?seat={seat}").json()
        assert replay["viewer_seat"] == seat and replay["seats"] == everything["seats"]
        seen = [m["step"] for m in replay["moments"][1:]]
        assert [m["index"] for m in replay["moments"]] == list(range(len(replay["moments"])))
        own = [s for s in seen if s["seat"] == seat]
        others = [s for s in seen if s["seat"] != seat]
        assert own and others
        assert all(s == steps[s["seq"]] for s in own)  # its own steps in full
        for step in others:
            assert (step["action"], step["reply"], step["latency_us"], step["strike"]) == (None,) * 4
            assert step["text"] and step["seat"] == steps[step["seq"]]["seat"]
        assert any(steps[s["seq"]]["latency_us"] is not None for s in others)  # something was hidden


def test_a_bad_seat_is_a_readable_error(base_url: str, tournament_id: int, match_ids: list[str]) -> None:
    url = f"{base_url}/api/tournaments/{tournament_id}/matches/{match_ids[0]}"
    players = fetch(url).json()["match"]["players"]
    reply = fetch(f"{url}?seat=first")
    assert (reply.status, reply.json()) == (400, {"error": "seat must be a whole number, got 'first'"})
    for seat in [players, -1]:
        reply = fetch(f"{url}?seat={seat}")
        message = f"match {match_ids[0]!r} has no seat {seat} (its seats are 0 to {players - 1})"
        assert (reply.status, reply.json()) == (404, {"error": message})
