"""The standings page in a real browser: rank intervals, the head-to-head matrix and the seat table
are drawn, visible, and say what ``smtourney standings --json`` and ``stats --json`` say."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from server.tournament.report import pairing_text, seat_verdict

from .conftest import fetch, needs_chromium

pytestmark = needs_chromium
DASH = "\u2013"  # the page writes an interval as low, en dash, high

DRAWN_JS = """() => ({
  intervals: [...document.querySelectorAll("#standings tbody tr")].map((row) => [
    row.dataset.entrant, row.querySelector(".rank-interval").textContent.trim()]),
  matrix: [...document.querySelectorAll("#head-to-head tbody tr")].map((row) => [
    row.dataset.row,
    [...row.querySelectorAll("td")].map((cell) => [cell.dataset.column, cell.textContent.trim()])]),
  seats: [...document.querySelectorAll("table.seat-advantage")].map((table) => [
    Number(table.dataset.players),
    [...table.querySelectorAll("tbody tr")].map((row) =>
      [...row.querySelectorAll("td")].map((cell) => cell.textContent.trim()))]),
  verdicts: [...document.querySelectorAll("p.verdict")].map((p) => p.textContent.trim()),
})"""


def seat_cells(row: dict[str, Any]) -> list[str]:
    share, score = row["win_share_interval"], row["mean_score_interval"]
    return [
        str(row["seat"]),
        str(row["wins"]),
        f"{row['win_share']:.3f}",
        f"{share[0]:.3f}{DASH}{share[1]:.3f}",
        f"{row['mean_score']:.2f}",
        f"{score[0]:.2f}{DASH}{score[1]:.2f}",
    ]


def test_standings_page_shows_rank_intervals_head_to_head_and_seat_advantage(
    page: Page, base_url: str, tournament_id: int
) -> None:
    data = fetch(f"{base_url}/api/tournaments/{tournament_id}").json()
    standings, stats = data["standings"], data["statistics"]
    page.goto(f"{base_url}/tournaments/{tournament_id}")
    for selector in ("#standings .rank-interval", "#head-to-head", "table.seat-advantage", "p.verdict"):
        assert page.locator(selector).first.is_visible(), selector
    drawn = page.evaluate(DRAWN_JS)

    assert drawn["intervals"] == [
        [s["name"], f"{s['rank_interval'][0]}{DASH}{s['rank_interval'][1]}"] for s in standings
    ]
    names = stats["entrants"]
    ranked = [names.index(s["name"]) for s in standings]  # rows and columns in the standings' order
    assert drawn["matrix"] == [
        [names[r], [[names[c], pairing_text(stats["head_to_head"][r][c])] for c in ranked]] for r in ranked
    ]
    assert drawn["seats"] == [
        [table["players"], [seat_cells(row) for row in table["seats"]]] for table in stats["seat_advantage"]
    ]
    assert drawn["verdicts"] == [seat_verdict(table) for table in stats["seat_advantage"]]

    # What the page shows is the real matrix: every shared match is counted once from each side.
    greedy, random = names.index("greedy"), names.index("random")
    there, back = stats["head_to_head"][greedy][random], stats["head_to_head"][random][greedy]
    assert there["matches"] == back["matches"] == 2  # both seat rotations of their one table
    assert there["ahead"] == back["behind"] and there["level"] == back["level"]
    assert drawn["matrix"][ranked.index(greedy)][1][ranked.index(greedy)] == ["greedy", "-"]
    assert len(drawn["seats"]) == 1 and len(drawn["seats"][0][1]) == 2
