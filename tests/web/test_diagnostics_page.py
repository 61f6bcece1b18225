"""The tournament page's diagnostics per entrant: decision times, bank, faults by kind with their matches."""

from __future__ import annotations

import html
import re

from .conftest import fetch


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
    seat_view = fetch(f"{url}?seat=1").body  # a seat's view shows only its own times
    assert re.findall(r'data-seat="(\d+)" data-answers="(\d+)" points', seat_view) == [("1", str(timed[1]))]
