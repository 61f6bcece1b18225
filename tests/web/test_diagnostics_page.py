"""The tournament page's diagnostics per entrant: decision times, bank, faults by kind with their matches."""

from __future__ import annotations

import html
import re
from contextlib import closing
from pathlib import Path

from playwright.sync_api import Page

from server.store.repository import Store
from server.web.app import viewer_app

from .conftest import fetch, needs_chromium, serve


def diagnostics_rows(page: str) -> dict[str, str]:
    found = re.search(r'<table class="list" id="diagnostics">(.*?)</table>', page, re.DOTALL)
    assert found, "the page has no diagnostics table"
    rows = re.findall(r'<tr data-diagnostics="([^"]+)">(.*?)</tr>', found.group(1), re.DOTALL)
    return dict(rows)


def test_diagnostics_show_the_cli_figures_and_each_fault_kind(base_url: str, tournament_id: int) -> None:
    page = fetch(f"{base_url}/tournaments/{tournament_id}").body
    standings = fetch(f"{base_url}/api/tournaments/{tournament_id}").json()["standings"]
    rows = diagnostics_rows(page)
    assert list(rows) == [s["name"] for s in standings]
    for entrant in standings:
        cells = re.findall(r'<td class="num">([^<]*)</td>', rows[entrant["name"]])
        times, bank = entrant["decision_ms"], entrant["bank_used_ms"]
        expected = [times["median"], times["p99"], times["max"], bank["mean"], bank["max"]]
        assert cells == [f"{value:.1f}" for value in expected]
        links = re.findall(r'data-fault="([^"]+)" data-count="(\d+)"', rows[entrant["name"]])
        assert {kind: int(count) for kind, count in links} == entrant["faults"]
    faulty = rows["faulty"]
    assert "illegal action" in faulty and "forfeit" in faulty  # the kind, not only a strike count
    assert "none" in rows["greedy"] and "data-fault" not in rows["greedy"]


def test_a_fault_link_lists_exactly_the_matches_with_that_fault(base_url: str, tournament_id: int) -> None:
    page = fetch(f"{base_url}/tournaments/{tournament_id}").body
    links = re.findall(r'data-fault="illegal_action"[^>]*href="([^"]+)"', diagnostics_rows(page)["faulty"])
    assert len(links) == 1
    listed = fetch(base_url + html.unescape(links[0])).body
    every = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches").json()
    expected = [
        m["match_id"]
        for m in every
        if any(s["name"] == "faulty" and any("illegal action" in f for f in s["faults"]) for s in m["seats"])
    ]
    assert expected and re.findall(r'<tr data-match="([^"]+)">', listed) == expected
    assert '<option value="illegal_action" selected>' in listed
    none = fetch(f"{base_url}/tournaments/{tournament_id}/matches?entrant=greedy&fault=illegal_action").body
    assert "No match passes these filters." in none


def test_an_unknown_fault_kind_is_a_clear_400(base_url: str, tournament_id: int) -> None:
    for url in (
        f"{base_url}/tournaments/{tournament_id}/matches?fault=lazy",
        f"{base_url}/api/tournaments/{tournament_id}/matches?fault=lazy",
    ):
        reply = fetch(url)
        assert reply.status == 400 and "fault must be one of" in html.unescape(reply.body)


def test_a_match_page_charts_each_seats_answer_times(
    base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    url = f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[0]}"
    page = fetch(url).body
    replay = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches/{match_ids[0]}").json()
    timed = {seat["seat"]: 0 for seat in replay["seats"]}
    for moment in replay["moments"]:
        step = moment["step"]
        if step is not None and step["latency_us"] is not None:
            timed[step["seat"]] += 1
    lines = re.findall(
        r'<polyline class="series" data-seat="(\d+)" data-answers="(\d+)" points="([^"]*)"', page
    )
    assert {int(seat): int(answers) for seat, answers, _ in lines} == timed and all(timed.values())
    assert all(len(points.split()) == int(answers) for _, answers, points in lines)
    # each line in its seat's own colour, as the seat panels and the decisions list draw the seat
    stroke = r'<polyline class="series" data-seat="(\d+)"[^>]* style="stroke: var\(--seat-(\d+),'
    strokes = re.findall(stroke, page)
    assert strokes and all(seat == coloured for seat, coloured in strokes), strokes
    seat_view = fetch(f"{url}?seat=1").body  # a seat's view shows only its own times
    assert re.findall(r'data-seat="(\d+)" data-answers="(\d+)" points', seat_view) == [("1", str(timed[1]))]


def test_the_organisers_viewer_serves_each_seats_log(
    base_url: str, tournament_db: Path, tournament_id: int, match_ids: list[str]
) -> None:
    match_id = match_ids[0]
    page = fetch(f"{base_url}/tournaments/{tournament_id}/matches/{match_id}").body
    links = re.findall(r'<li><a href="([^"]+)">seat (\d+): ([^<]+)</a></li>', page)
    assert [int(seat) for _, seat, _ in links] == [0, 1]
    for url, seat, name in links:
        reply = fetch(base_url + url)
        kept = tournament_db.parent / f"{tournament_db.stem}-logs" / f"{match_id}.seat{seat}.{name}.log"
        assert reply.status == 200 and reply.content_type.startswith("text/plain")
        assert reply.body == kept.read_text()
    assert "seat-logs" not in fetch(f"{base_url}/tournaments/{tournament_id}/matches/{match_id}?seat=0").body
    assert fetch(f"{base_url}/tournaments/{tournament_id}/matches/{match_id}/seats/5/log").status == 404
    assert fetch(f"{base_url}/tournaments/{tournament_id}/matches/..%2F..%2Fx/seats/0/log").status == 404


def test_the_viewer_the_ladder_mounts_serves_no_log(
    tournament_db: Path, tournament_id: int, match_ids: list[str]
) -> None:
    """The viewer as the ladder's service mounts it, for anyone who reaches the service."""
    store = Store.open(tournament_db)
    with closing(store), serve(tournament_db, lambda _: viewer_app(store)) as url:
        match = f"{url}/tournaments/{tournament_id}/matches/{match_ids[0]}"
        assert fetch(match).status == 200 and "seat-logs" not in fetch(match).body
        assert fetch(f"{match}/seats/0/log").status == 404


@needs_chromium
def test_the_diagnostics_and_the_time_chart_are_drawn_at_phone_width(
    page: Page, base_url: str, tournament_id: int, match_ids: list[str], page_errors: list[str]
) -> None:
    page.set_viewport_size({"width": 400, "height": 900})
    page.goto(f"{base_url}/tournaments/{tournament_id}")
    link = page.locator('#diagnostics tr[data-diagnostics="faulty"] a[data-fault="illegal_action"]')
    assert link.is_visible() and link.inner_text().startswith("illegal action")
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    page.goto(f"{base_url}/tournaments/{tournament_id}/matches/{match_ids[0]}")
    chart = page.locator("#timing-plot").bounding_box()
    assert chart is not None and chart["width"] > 100 and chart["height"] > 30
    assert page.locator("#timing-plot polyline.series").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    assert page_errors == []
