"""The HTML pages over a real database, and readable error pages for everything that can go wrong."""

from __future__ import annotations

import gzip
import html
import json
import re
import sqlite3
import urllib.request
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from server.web.catalog import Catalog
from server.web.view_changes import with_view_changes

from ..stored_steps import BROKEN_BLOCKS, overwrite_block, replace_step, rewrite_step
from .conftest import fetch, serve

ASSET = re.compile(r"""(?:src|href)="([^"#]*)\"""")


def message_of(page: str) -> str:
    """The error page's message, as the reader sees it."""
    found = re.search(r'<p class="message">(.*?)</p>', page, re.DOTALL)
    assert found, "not an error page"
    return html.unescape(found.group(1))


def replay_in_page(page: str) -> object:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.DOTALL)
    assert found, "the page holds no replay"
    return json.loads(found.group(1))


def replay_of(page: str) -> dict[str, Any]:
    replay = replay_in_page(page)
    assert isinstance(replay, dict)
    return replay


def selector(page: str) -> str:
    """The seat-view selector's markup."""
    found = re.search(r'<select id="seat-view".*?</select>', page, re.DOTALL)
    assert found, "the page has no seat-view selector"
    return found.group(0)


def test_tournament_list_links_each_tournament(base_url: str, tournament_id: int) -> None:
    reply = fetch(base_url + "/")
    assert reply.status == 200 and reply.content_type.startswith("text/html")
    assert f'<a href="/tournaments/{tournament_id}">web-tiny</a>' in reply.body


def test_tournament_page_shows_standings_and_a_rating_line_per_entrant(
    base_url: str, tournament_id: int
) -> None:
    page = fetch(f"{base_url}/tournaments/{tournament_id}").body
    standings = fetch(f"{base_url}/api/tournaments/{tournament_id}").json()["standings"]
    rows = re.findall(r'<tr data-entrant="([^"]+)">', page)
    assert rows == [s["name"] for s in standings]
    lines = re.findall(r'<polyline class="series" data-entrant="([^"]+)" points="([^"]+)"', page)
    assert sorted(name for name, _ in lines) == ["faulty", "greedy", "random"]
    assert all(len(points.split()) == 5 for _, points in lines)  # the start and four matches each


def test_tournament_sections_are_the_pages_own(base_url: str, tournament_id: int) -> None:
    """What a running tournament's page swaps in: each of its sections, as the page renders it."""
    page = fetch(f"{base_url}/tournaments/{tournament_id}").body
    reply = fetch(f"{base_url}/tournaments/{tournament_id}/sections")
    assert reply.status == 200 and reply.content_type.startswith("text/html")
    names = re.findall(r'data-section="([^"]+)"', reply.body)
    assert names == [
        "finished",
        "live",
        "standings",
        "diagnostics",
        "head-to-head",
        "seat-advantage",
        "rating-history",
    ]
    assert reply.body.strip() in page
    assert f'data-sections="/tournaments/{tournament_id}/sections"' in page
    # A finished tournament's page: its live section hidden, its standings not provisional.
    assert re.search(r'<section id="live"[^>]*data-running="false"[^>]*hidden>', reply.body)
    assert re.search(r'<span id="provisional"[^>]*hidden', reply.body)
    missing = fetch(f"{base_url}/tournaments/987654/sections")
    assert (
        missing.status == 404 and message_of(missing.body) == "there is no tournament 987654 in this database"
    )


def test_head_to_head_reads_in_rank_order_on_a_colour_scale(base_url: str, tournament_id: int) -> None:
    page = fetch(f"{base_url}/tournaments/{tournament_id}").body
    standings = fetch(f"{base_url}/api/tournaments/{tournament_id}").json()["standings"]
    table = page[page.index('<table class="list" id="head-to-head">') :]
    table = table[: table.index("</table>")]
    ranked = [s["name"] for s in standings]
    assert re.findall(r'<th class="num" data-column="([^"]+)">', table) == ranked
    assert re.findall(r'<tr data-row="([^"]+)">', table) == ranked
    cells = re.findall(
        r'<td class="num" data-column="[^"]+" data-ahead="(\d+)" data-matches="(\d+)"([^>]*)>', table
    )
    colours = {}
    for ahead, matches, style in cells:
        if matches == "0":
            assert style == ""  # no shared match: no colour
        else:
            colours[int(ahead) / int(matches)] = style
    assert colours[1.0] == ' style="background: #92c5de"' and colours[0.0] == ' style="background: #f4a582"'
    assert colours.get(0.5, ' style="background: #ffffff"') == ' style="background: #ffffff"'
    assert "linear-gradient(to right, #f4a582, #ffffff, #92c5de)" in page  # the scale's legend


def test_seat_table_headings_say_which_interval(base_url: str, tournament_id: int) -> None:
    page = fetch(f"{base_url}/tournaments/{tournament_id}").body
    table = page[page.index('<table class="list seat-advantage"') :]
    headings = re.findall(r"<th[^>]*>([^<]+)</th>", table[: table.index("</thead>")])
    assert len(headings) == len(set(headings)) == 6
    assert "win share 95 % interval" in headings and "mean score 95 % interval" in headings


def test_a_match_leads_back_to_its_tournament(
    base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    page = fetch(f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[0]}").body
    crumbs = re.search(r'<nav class="crumbs">(.*?)</nav>', page, re.S)
    assert crumbs and re.findall(r'<a href="([^"]+)"', crumbs.group(1))[:2] == [
        f"/tournaments/{tournament_id}",
        f"/tournaments/{tournament_id}/matches",
    ]
    for path, links in (("", 1), ("/matches", 2)):
        page = fetch(f"{base_url}/tournaments/{tournament_id}{path}").body
        crumbs = re.search(r'<nav class="crumbs">(.*?)</nav>', page, re.S)
        assert (
            crumbs
            and re.findall(r'<a href="([^"]+)"', crumbs.group(1))
            == [
                f"/tournaments/{tournament_id}",
                f"/tournaments/{tournament_id}/matches",
            ][:links]
        )


def test_matches_page_applies_the_filters(base_url: str, tournament_id: int, match_ids: list[str]) -> None:
    url = f"{base_url}/tournaments/{tournament_id}/matches"
    assert re.findall(r'<tr data-match="([^"]+)">', fetch(url).body) == match_ids
    every = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches").json()
    greedy_seat1 = [m["match_id"] for m in every if m["seats"][1]["name"] == "greedy"]
    page = fetch(f"{url}?entrant=greedy&seat=1").body
    assert re.findall(r'<tr data-match="([^"]+)">', page) == greedy_seat1 and len(greedy_seat1) == 2
    assert page.count(" picked") == 2 and '<option value="greedy" selected>' in page
    page = fetch(f"{url}?score_min=1000").body
    assert "No match passes these filters." in page and "0 of 6 matches." in page


def test_match_page_holds_the_replay_and_only_local_assets(
    base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    reply = fetch(f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[1]}")
    assert reply.status == 200
    api = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches/{match_ids[1]}").json()
    assert replay_in_page(reply.body) == with_view_changes(api)
    assets = ASSET.findall(reply.body)
    assert "/static/viewer.js" in assets and "/static/viewer.css" in assets
    assert all(a.startswith("/") and not a.startswith("//") for a in assets), assets
    for asset in {a for a in assets if a.startswith("/static/")}:
        assert fetch(base_url + asset).status == 200, asset


def test_a_replay_page_is_gzipped_when_the_client_accepts_it(
    base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    url = f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[1]}"
    plain = fetch(url).body
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        body = response.read()
    assert len(body) < len(plain.encode()) / 3
    assert gzip.decompress(body).decode() == plain


def test_a_page_is_not_gzipped_for_a_client_that_does_not_ask(
    base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    url = f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[1]}"
    with urllib.request.urlopen(url, timeout=30) as response:
        assert response.headers["Content-Encoding"] is None
        assert "<html" in response.read().decode()


def test_match_export_is_a_download(base_url: str, tournament_id: int, match_ids: list[str]) -> None:
    url = f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[0]}/export"
    with urllib.request.urlopen(url) as response:
        assert response.headers["content-disposition"] == f'attachment; filename="{match_ids[0]}.html"'
        assert "/static/" not in response.read().decode()


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/tournaments/99", "there is no tournament 99 in this database"),
        ("/tournaments/{t}/matches/r9-t9-s9", "there is no match 'r9-t9-s9' in tournament 'web-tiny'"),
        ("/tournaments/99/matches", "there is no tournament 99 in this database"),
        ("/tournaments/first", "there is no page at /tournaments/first"),
        ("/no/such/page", "there is no page at /no/such/page"),
    ],
)
def test_unknown_pages_are_readable_404s(base_url: str, tournament_id: int, path: str, message: str) -> None:
    reply = fetch(base_url + path.format(t=tournament_id))
    assert reply.status == 404 and reply.content_type.startswith("text/html")
    assert message_of(reply.body) == message and "Traceback" not in reply.body


def test_a_bad_filter_is_a_readable_400(base_url: str, tournament_id: int) -> None:
    reply = fetch(f"{base_url}/tournaments/{tournament_id}/matches?score_min=lots")
    assert reply.status == 400
    assert message_of(reply.body) == "minimum score must be a whole number, got 'lots'"


def damage_seat(db: Path, match_id: str) -> None:
    with closing(sqlite3.connect(db)) as copy:
        copy.execute(
            "UPDATE seat SET faults_json = '[oops' WHERE seat = 1 AND match_pk = "
            "(SELECT id FROM match WHERE match_id = ?)",
            (match_id,),
        )
        copy.commit()


@pytest.mark.parametrize(
    ("corruption", "message"),
    [
        (
            lambda db, match_id: overwrite_block(db, match_id, BROKEN_BLOCKS["not-json"]),
            "corrupted replay data in the steps of match",
        ),
        (
            lambda db, match_id: rewrite_step(
                db, match_id, lambda step: step.seq == 0, replace_step({"type": "choose", "symbol": "cross"})
            ),
            "at step 0",
        ),
        (damage_seat, "corrupted replay data in seat 1 of match"),
    ],
    ids=["block", "step", "seat"],
)
def test_a_corrupted_replay_is_a_readable_error(
    db_copy: Path, match_ids: list[str], corruption: Callable[[Path, str], object], message: str
) -> None:
    corruption(db_copy, match_ids[0])
    with serve(db_copy) as url:
        (tournament,) = fetch(f"{url}/api/tournaments").json()
        page = fetch(f"{url}/tournaments/{tournament['id']}/matches/{match_ids[0]}")
        api = fetch(f"{url}/api/tournaments/{tournament['id']}/matches/{match_ids[0]}")
        other = fetch(f"{url}/tournaments/{tournament['id']}/matches/{match_ids[1]}")
    assert page.status == 500 and page.content_type.startswith("text/html")
    assert message_of(page.body).startswith(f"match {match_ids[0]!r} cannot be shown: ")
    assert message in message_of(page.body) and "Traceback" not in page.body
    assert api.status == 500 and api.json()["error"] == message_of(page.body)
    assert other.status == 200  # the other matches still show


def test_a_game_that_is_not_installed_is_a_readable_error(db_copy: Path, match_ids: list[str]) -> None:
    with closing(sqlite3.connect(db_copy)) as copy:
        copy.execute("UPDATE tournament SET game = 'chess'")
        copy.commit()
    with serve(db_copy) as url:
        (tournament,) = fetch(f"{url}/api/tournaments").json()
        page = fetch(f"{url}/tournaments/{tournament['id']}/matches/{match_ids[0]}")
        standings = fetch(f"{url}/tournaments/{tournament['id']}")
    assert page.status == 500
    assert message_of(page.body).startswith(f"match {match_ids[0]!r} cannot be shown: unknown game 'chess'")
    assert standings.status == 200


def test_an_unexpected_error_is_a_readable_500(
    base_url: str, tournament_id: int, match_ids: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("something broke")

    monkeypatch.setattr(Catalog, "replay", broken)
    page = fetch(f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[0]}")
    assert page.status == 500 and message_of(page.body) == "unexpected error: RuntimeError: something broke"
    assert "Traceback" not in page.body


def test_match_page_loads_the_module_of_its_game_only(
    base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    reply = fetch(f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[0]}")
    game = replay_of(reply.body)["match"]["game"]
    scripts = re.findall(r'<script src="([^"]+)"', reply.body)
    assert scripts == ["/static/viewer.js", f"/games/{game}.js"]  # the game's module after the viewer
    module = fetch(base_url + scripts[1])
    assert module.status == 200 and module.content_type.startswith("text/javascript")


def test_a_seat_page_holds_that_seats_replay_and_says_so(
    base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    path = f"/tournaments/{tournament_id}/matches/{match_ids[1]}"
    page = fetch(f"{base_url}{path}?seat=1").body
    assert replay_in_page(page) == with_view_changes(fetch(f"{base_url}/api{path}?seat=1").json())
    assert 'data-viewer-seat="1"' in page and f'data-replay-url="/api{path}"' in page
    options = re.findall(r'<option value="(\d*)"( selected)?>([^<]*)</option>', selector(page))
    names = [s["name"] for s in replay_of(page)["seats"]]
    seats = [
        (str(n), " selected" if n == 1 else "", f"as seat {n} {name} saw it") for n, name in enumerate(names)
    ]
    assert options == [("", "", "everyone (organiser)"), *seats]
    assert "disabled" not in selector(page)
    assert f'id="export-link" href="{path}/export?seat=1"' in page
    everything = fetch(base_url + path).body
    assert 'data-viewer-seat=""' in everything and '<option value="" selected>' in everything
    assert f'id="export-link" href="{path}/export"' in everything


def test_a_seat_export_is_that_seats_view(base_url: str, tournament_id: int, match_ids: list[str]) -> None:
    path = f"/tournaments/{tournament_id}/matches/{match_ids[0]}"
    with urllib.request.urlopen(f"{base_url}{path}/export?seat=0") as response:
        assert response.headers["content-disposition"] == f'attachment; filename="{match_ids[0]}-seat0.html"'
        page = response.read().decode()
    assert replay_in_page(page) == with_view_changes(fetch(f"{base_url}/api{path}?seat=0").json())
    assert " disabled" in selector(page) and '<option value="0" selected>' in selector(page)


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("?seat=first", 400, "seat must be a whole number, got 'first'"),
        ("?seat=2", 404, "match {m!r} has no seat 2 (its seats are 0 to 1)"),
        ("/export?seat=-1", 404, "match {m!r} has no seat -1 (its seats are 0 to 1)"),
    ],
)
def test_a_bad_seat_is_a_readable_page(
    base_url: str, tournament_id: int, match_ids: list[str], query: str, status: int, message: str
) -> None:
    reply = fetch(f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[0]}{query}")
    assert reply.status == status and reply.content_type.startswith("text/html")
    assert message_of(reply.body) == message.format(m=match_ids[0])
