"""The ladder's pages and their JSON on a real server on 127.0.0.1 over a real SQLite file: the
leaderboard, a bot's page, the matches in progress, and no replay of a match in flight."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from server.ladder.matchmaking import Table
from server.store.live import LiveFeed
from server.tournament.statistics import rank_intervals
from server.web import ladder_catalog

from ..ladder.test_api import LADDER, served
from .conftest import Reply, fetch, serve
from .ladder_fill import LadderFill

LONG = "a-bot-with-a-name-long-enough-to-wrap-" + "x" * 60


@dataclass
class Played:
    ladder_match: int
    table: Table
    record: int


@dataclass
class Filled:
    url: str
    fill: LadderFill
    bots: dict[str, int]
    played: list[Played]


@pytest.fixture
def filled(tmp_path: Path, tournament_db: Path) -> Iterator[Filled]:
    """Four active bots and a failed one; six matches played; the viewer serving it."""
    fill = LadderFill(tmp_path / "ladder.db", tournament_db)
    try:
        ada, grace = fill.participant("ada"), fill.participant("grace")
        bots = {
            "alpha": fill.bot(ada, "alpha"),
            "beta": fill.bot(ada, "beta"),
            "gamma": fill.bot(grace, "gamma"),
            LONG: fill.bot(grace, LONG),
            "broken": fill.bot(grace, "broken", reason="FAIL health: the bot did not answer"),
        }
        fill.open_tournament()
        played = []
        for record in range(len(fill.records)):
            ladder_match, table = fill.decide()
            fill.finish(ladder_match, fill.start(ladder_match, record))
            played.append(Played(ladder_match, table, record))
        with serve(tmp_path / "ladder.db") as url:
            yield Filled(url, fill, bots, played)
    finally:
        fill.close()


def html(reply: Reply) -> str:
    assert reply.status == 200 and reply.content_type.startswith("text/html"), reply
    return reply.body


def embedded(page: str) -> object:
    found = re.search(r'<script id="live-data" type="application/json">(.*?)</script>', page, re.S)
    assert found, page
    return json.loads(found.group(1))


def test_the_leaderboard_ranks_the_bots_with_their_interval_and_last_game(filled: Filled) -> None:
    rows = fetch(f"{filled.url}/api/ladder/public/leaderboard").json()
    expected = filled.fill.ladder.leaderboard()
    assert [row["id"] for row in rows] == [row.id for row in expected]
    assert "broken" not in {row["name"] for row in rows}  # failed without a game: not on the board
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))
    active = [row for row in expected if row.status == "active"]
    assert len(active) >= 3  # a suspended bot (three forfeits in a row) has no rank interval
    drawn = rank_intervals([r.mu for r in active], [r.sigma for r in active])
    intervals = dict(zip((r.id for r in active), drawn, strict=True))
    for row, bot in zip(rows, expected, strict=True):
        assert row["mu"] == bot.mu and row["sigma"] == bot.sigma
        assert row["conservative"] == pytest.approx(bot.mu - 3 * bot.sigma)
        interval = intervals.get(bot.id)
        assert row["rank_interval"] == (None if interval is None else list(interval))
        assert interval is None or 1 <= interval[0] <= interval[1]
        assert row["games"] == bot.games
    seated = [bot.id for p in filled.played for bot in p.table.seats]
    for row in rows:
        assert row["games"] == seated.count(row["id"]) and row["games"] > 0
        assert row["last_game_at"] is not None and row["last_game_at"].endswith("+00:00")
    active_rows = [row for row in rows if row["status"] == "active"]  # active first, then the rest
    board = [row["conservative"] for row in active_rows]
    assert board == sorted(board, reverse=True) and rows[: len(board)] == active_rows
    page = html(fetch(f"{filled.url}/ladder"))
    assert embedded(page) == rows
    assert 'src="/static/ladder.js"' in page and 'data-source="/api/ladder/public/leaderboard"' in page


def test_a_bots_page_has_its_status_history_matches_and_faults(filled: Filled) -> None:
    for name, bot_id in filled.bots.items():
        story = fetch(f"{filled.url}/api/ladder/public/bots/{bot_id}").json()
        mine = [p for p in filled.played if bot_id in [b.id for b in p.table.seats]]
        assert story["bot"]["name"] == name and [m["id"] for m in story["matches"]] == [
            p.ladder_match for p in reversed(mine)
        ]
        # The rating matchmaking saw at each decision, then the current rating.
        seen = [next(b for b in p.table.seats if b.id == bot_id) for p in mine]
        (now,) = [row for row in filled.fill.ladder.bots() if row.id == bot_id]
        assert [(h["match_index"], h["mu"], h["sigma"]) for h in story["history"]] == [
            *((p.ladder_match, b.mu, b.sigma) for p, b in zip(mine, seen, strict=True)),
            (None, now.mu, now.sigma),
        ]
        faults = []
        for p in mine:
            seat = [b.id for b in p.table.seats].index(bot_id)
            recorded = filled.fill.records[p.record].seats[seat]
            if recorded.strikes or recorded.forfeited:
                faults.append((p.ladder_match, recorded.strikes, recorded.forfeited, recorded.faults))
        assert [(f["ladder_match"], f["strikes"], f["forfeited"], f["faults"]) for f in story["faults"]] == (
            faults[::-1]
        )
        for match in story["matches"]:
            assert match["status"] == "done"
            assert re.fullmatch(r"/tournaments/\d+/matches/ladder-\d+", match["url"]), match["url"]
            assert fetch(filled.url + match["url"]).status == 200  # the replay opens once done
        assert story["match_count"] == len(mine)
        page = html(fetch(f"{filled.url}/ladder/bots/{bot_id}"))
        assert embedded(page) == story and 'id="rating-plot"' in page
    assert any(
        fetch(f"{filled.url}/api/ladder/public/bots/{b}").json()["faults"] for b in filled.bots.values()
    )
    broken = fetch(f"{filled.url}/api/ladder/public/bots/{filled.bots['broken']}").json()
    assert broken["bot"]["status"] == "failed"
    assert broken["bot"]["reason"] == "FAIL health: the bot did not answer"
    assert broken["matches"] == [] and broken["bot"]["rank"] == 0


def test_a_bots_page_lists_its_newest_matches_only(filled: Filled, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ladder_catalog, "MATCHES_SHOWN", 2)
    bot_id = max(
        filled.bots.values(), key=lambda b: sum(b in [s.id for s in p.table.seats] for p in filled.played)
    )
    mine = [p.ladder_match for p in filled.played if bot_id in [b.id for b in p.table.seats]]
    assert len(mine) > 2
    story = fetch(f"{filled.url}/api/ladder/public/bots/{bot_id}").json()
    assert [m["id"] for m in story["matches"]] == mine[:-3:-1] and story["match_count"] == len(mine)
    assert [h["match_index"] for h in story["history"]] == [*mine, None]  # the whole history still


def test_every_bot_is_listed_newest_first_with_why_it_failed(filled: Filled) -> None:
    rows = fetch(f"{filled.url}/api/ladder/public/bots").json()
    assert [row["id"] for row in rows] == sorted(filled.bots.values(), reverse=True)
    board = {row["id"]: row for row in fetch(f"{filled.url}/api/ladder/public/leaderboard").json()}
    for row in rows:
        assert row == board.get(row["id"], row)  # a bot on the board is listed as the board has it
    (broken,) = [row for row in rows if row["name"] == "broken"]
    assert (broken["status"], broken["reason"], broken["rank"]) == (
        "failed",
        "FAIL health: the bot did not answer",
        0,
    )
    assert embedded(html(fetch(f"{filled.url}/ladder/bots"))) == rows


def test_matches_in_progress_link_only_to_their_live_view(filled: Filled) -> None:
    assert fetch(f"{filled.url}/api/ladder/public/matches").json() == []
    scheduled, scheduled_table = filled.fill.decide()
    playing, playing_table = filled.fill.decide()
    played = filled.fill.start(playing, 0)  # handed to a worker: in flight, not stored
    rows = fetch(f"{filled.url}/api/ladder/public/matches").json()
    assert [(row["id"], row["status"]) for row in rows] == [(scheduled, "scheduled"), (playing, "playing")]
    assert [[seat["bot_id"] for seat in row["seats"]] for row in rows] == [
        [bot.id for bot in scheduled_table.seats],
        [bot.id for bot in playing_table.seats],
    ]
    assert all(seat["score"] is None and seat["rank"] is None for row in rows for seat in row["seats"])
    assert [row["url"] for row in rows] == [
        f"/ladder/matches/{scheduled}/watch",
        f"/ladder/matches/{playing}/watch",
    ]
    board = fetch(f"{filled.url}/api/ladder/public/matches/board").json()
    assert board["in_progress"] == rows
    assert embedded(html(fetch(f"{filled.url}/ladder/matches"))) == board

    tournament = filled.fill.tournament_id
    assert redirect(filled.url, f"/ladder/matches/{playing}/watch") == (
        f"/tournaments/{tournament}/matches/ladder-{playing}/live"
    )
    replay = f"/tournaments/{tournament}/matches/ladder-{playing}"
    for path in (replay, f"{replay}?seat=0", f"{replay}/export", f"/api{replay}", f"/api{replay}?seat=1"):
        refused = fetch(filled.url + path)
        assert refused.status == 403, path
        assert f"is still being played: watch it live at /ladder/matches/{playing}/watch" in refused.body

    filled.fill.finish(playing, played)
    assert [row["id"] for row in fetch(f"{filled.url}/api/ladder/public/matches").json()] == [scheduled]
    assert redirect(filled.url, f"/ladder/matches/{playing}/watch") == replay
    assert (
        fetch(filled.url + replay).status == 200 and fetch(f"{filled.url}/api{replay}?seat=1").status == 200
    )


def test_the_matches_page_lists_the_newest_results_too(
    filled: Filled, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below the matches in progress, those finished last, newest first, each with its result and replay."""
    board = fetch(f"{filled.url}/api/ladder/public/matches/board").json()
    assert board["in_progress"] == []
    played = [p.ladder_match for p in filled.played]
    assert [row["id"] for row in board["recent"]] == played[::-1]
    story = {
        match["id"]: match
        for name in ("alpha", "beta", "gamma")
        for match in fetch(f"{filled.url}/api/ladder/public/bots/{filled.bots[name]}").json()["matches"]
    }
    for row in board["recent"]:
        assert row["status"] == "done" and row["finished_at"] is not None
        assert row["url"].startswith("/tournaments/") and row == story.get(row["id"], row)
        assert all(seat["score"] is not None and seat["rank"] is not None for seat in row["seats"])
    assert embedded(html(fetch(f"{filled.url}/ladder/matches"))) == board
    # Only the newest are listed: with room for four, the two oldest give way.
    monkeypatch.setattr(ladder_catalog, "RESULTS_SHOWN", 4)
    recent = fetch(f"{filled.url}/api/ladder/public/matches/board").json()["recent"]
    assert [row["id"] for row in recent] == played[::-1][:4]


def crumbs(page: str) -> list[str]:
    """Where the page's breadcrumb links lead."""
    found = re.search(r'<nav class="crumbs">(.*?)</nav>', page, re.S)
    assert found, "the page has no breadcrumb"
    return re.findall(r'<a href="([^"]+)"', found.group(1))


def test_a_ladder_match_leads_back_to_the_ladder(filled: Filled) -> None:
    """Not to the tournament row that stores the ladder's matches: its page means nothing to a visitor."""
    tournament = filled.fill.tournament_id
    assert tournament is not None
    playing, _ = filled.fill.decide()
    played = filled.fill.start(playing, 0)
    feed = LiveFeed(filled.fill.store.engine, filled.fill.store.path)
    feed.start_match(
        tournament, f"ladder-{playing}", params={}, seats=("a", "b"), started_at=datetime.now(UTC)
    )
    live = fetch(f"{filled.url}/tournaments/{tournament}/matches/ladder-{playing}/live")
    assert live.status == 200 and crumbs(live.body) == ["/ladder", "/ladder/matches"]
    filled.fill.finish(playing, played)
    replay = fetch(f"{filled.url}/tournaments/{tournament}/matches/ladder-{playing}")
    assert replay.status == 200 and crumbs(replay.body)[:2] == ["/ladder", "/ladder/matches"]
    assert not any(link.startswith("/tournaments/") for link in crumbs(replay.body)[:-1])
    assert redirect(filled.url, f"/tournaments/{tournament}", status=303) == "/ladder"
    matches = fetch(f"{filled.url}/tournaments/{tournament}/matches")
    assert matches.status == 200 and crumbs(matches.body) == ["/ladder", "/ladder/matches"]
    # On the front page the ladder's tournament is the ladder's matches, neither finished nor won.
    listed = re.search(
        rf'<tr data-tournament="{tournament}" data-status="([^"]+)">(.*?)</tr>',
        fetch(filled.url + "/").body,
        re.S,
    )
    assert listed and listed.group(1) == "ladder" and '<a href="/ladder">' in listed.group(2)


def redirect(url: str, path: str, status: int = 307) -> str:
    host, port = url.removeprefix("http://").split(":")
    with closing(http.client.HTTPConnection(host, int(port), timeout=30)) as connection:
        connection.request("GET", path)
        response = connection.getresponse()
        assert response.status == status, (path, response.status, response.read())
        return str(response.headers["location"])


def test_unknown_bots_and_matches_are_one_clear_404(filled: Filled) -> None:
    page = fetch(f"{filled.url}/ladder/bots/999")
    assert page.status == 404 and "there is no bot 999 in this ladder" in page.body
    assert fetch(f"{filled.url}/api/ladder/public/bots/999") == Reply(
        404, "application/json", '{"error":"there is no bot 999 in this ladder"}'
    )
    assert fetch(f"{filled.url}/ladder/bots/abc").status == 404
    assert "there is no ladder match 999" in fetch(f"{filled.url}/ladder/matches/999/watch").body
    assert 'id="ladder-link"' in html(fetch(f"{filled.url}/"))


def test_a_database_without_a_ladder_shows_an_empty_board_and_no_link(tournament_db: Path) -> None:
    with serve(tournament_db) as url:
        assert 'id="ladder-link"' not in html(fetch(f"{url}/"))
        assert embedded(html(fetch(f"{url}/ladder"))) == []
        assert fetch(f"{url}/api/ladder/public/matches").json() == []


def test_ladder_serve_serves_the_pages_beside_its_api(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text(LADDER)
    with served(path) as api:
        url = f"http://{api.host}:{api.port}"
        assert embedded(html(fetch(f"{url}/ladder"))) == []
        assert fetch(f"{url}/api/ladder/public/leaderboard").json() == []
        assert html(fetch(f"{url}/ladder/matches"))
        assert fetch(f"{url}/static/ladder.js").status == 200
        # The API keeps its own replies.
        assert api.request("GET", "/bots").body == {
            "detail": "a token is needed: send the header Authorization: Bearer TOKEN"
        }
        assert api.request("GET", "/leaderboard").body == []
