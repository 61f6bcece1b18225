"""The ladder's live pages in a real browser while results arrive: the leaderboard, a bot's page and
the matches in progress follow the ladder without a reload and mark what changed.

Results arrive through the ladder store's own methods (decide, store the played match, count it),
written by this test while the page is open and polling the server.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from .conftest import fetch, needs_chromium, serve
from .ladder_fill import LadderFill

pytestmark = needs_chromium

DASH = "\N{EN DASH}"
LONG = "an-uncommonly-long-bot-name-that-must-wrap-inside-its-cell-" + "z" * 50

#: The leaderboard as drawn: per row, its key and the texts of its cells, and whether it is marked.
DRAWN_JS = """() => [...document.querySelectorAll("#leaderboard tbody tr")].map((row) => ({
  id: Number(row.dataset.key),
  cells: [...row.cells].map((cell) => cell.textContent),
  marked: row.classList.contains("changed") || row.classList.contains("new"),
  move: row.querySelector(".move")?.textContent ?? null,
}))"""

#: Elements whose text is wider than their box (and the page wider than the window).
OVERFLOW_JS = """() => {
  const over = [...document.querySelectorAll("td, th, dd, dt, h1, .seat-result, .status, .tabs a")]
    .filter((e) => e.scrollWidth > e.clientWidth + 1)
    .map((e) => e.outerHTML.slice(0, 120));
  const page = document.documentElement;
  if (page.scrollWidth > window.innerWidth) over.push("the page is wider than its window");
  return over;
}"""


@pytest.fixture
def ladder(tmp_path: Path, tournament_db: Path) -> Iterator[tuple[str, LadderFill]]:
    """Four active bots (one with a very long name) and two matches played; the viewer serving it."""
    fill = LadderFill(tmp_path / "ladder.db", tournament_db)
    try:
        ada, grace = fill.participant("ada"), fill.participant("grace-" + "q" * 40)
        for owner, name in ((ada, "alpha"), (ada, "beta"), (grace, "gamma"), (grace, LONG)):
            fill.bot(owner, name)
        fill.open_tournament()
        fill.play(0)
        fill.play(1)
        with serve(tmp_path / "ladder.db") as url:
            yield url, fill
    finally:
        fill.close()


def expected_cells(row: dict[str, Any], move: str | None) -> list[str]:
    low_high = (
        "—"
        if row["rank_interval"] is None
        else "{}{}{}".format(row["rank_interval"][0], DASH, row["rank_interval"][1])
    )
    last = row["last_game_at"][:19].replace("T", " ") if row["last_game_at"] else "—"
    return [
        f"{row['rank']}{move or ''}",
        row["name"],
        row["participant"],
        row["status"],
        f"{row['mu']:.2f}",
        f"{row['sigma']:.2f}",
        f"{row['conservative']:.2f}",
        low_high,
        str(row["games"]),
        last,
    ]


def test_the_leaderboard_follows_results_as_they_arrive(page: Page, ladder: tuple[str, LadderFill]) -> None:
    url, fill = ladder
    page.goto(f"{url}/ladder")
    page.wait_for_selector("#live[data-ready='true']")
    before = fetch(f"{url}/api/ladder/public/leaderboard").json()
    drawn = page.evaluate(DRAWN_JS)
    assert [row["cells"] for row in drawn] == [expected_cells(row, None) for row in before]
    assert not any(row["marked"] for row in drawn)

    moves_seen = intervals_moved = 0
    for record in (2, 3, 4, 5):
        fill.play(record)
        after = fetch(f"{url}/api/ladder/public/leaderboard").json()
        games = sum(row["games"] for row in after)
        page.wait_for_function(
            "(games) => [...document.querySelectorAll('#leaderboard tbody tr td:nth-child(9)')]"
            ".reduce((sum, cell) => sum + Number(cell.textContent), 0) === games",
            arg=games,
        )
        drawn = page.evaluate(DRAWN_JS)
        old = {row["id"]: row for row in before}
        rank_before = {row["id"]: row["rank"] for row in before}
        for row, shown in zip(after, drawn, strict=True):
            moved = rank_before[row["id"]] - row["rank"]
            move = None if moved == 0 else f"{'▲' if moved > 0 else '▼'}{abs(moved)}"
            assert shown["id"] == row["id"] and shown["move"] == move
            assert shown["cells"] == expected_cells(row, move)
            # Marked: the bots whose own figures changed (those of the match), not every row whose rank or
            # rank interval moved because of them (a move in rank has its own mark).
            played = row["games"] != old[row["id"]]["games"]
            assert shown["marked"] == played, (row["name"], shown)
            moves_seen += move is not None
            intervals_moved += not played and row["rank_interval"] != old[row["id"]]["rank_interval"]
        assert sum(row["marked"] for row in drawn) == 2  # both bots of the match, and only they
        before = after
    assert moves_seen > 0, "no rank changed in four matches: the rank marks were not tried"
    assert intervals_moved > 0, "no bot out of a match saw its rank interval move: its mark was not tried"

    newcomer = fill.bot(fill.participant("hopper"), "newcomer")
    page.wait_for_selector(f"#leaderboard tr[data-key='{newcomer}'].new")
    assert page.evaluate(OVERFLOW_JS) == []


def test_a_bots_page_follows_its_match_from_decision_to_replay(
    page: Page, ladder: tuple[str, LadderFill]
) -> None:
    url, fill = ladder
    ladder_match, table = fill.decide()
    bot = table.seats[0].id
    page.goto(f"{url}/ladder/bots/{bot}")
    page.wait_for_selector("#live[data-ready='true']")
    row = f"#bot-matches tr[data-match='{ladder_match}']"
    assert page.inner_text(f"{row} td:nth-child(2)") == "scheduled"
    assert page.get_attribute(f"{row} a.watch", "href") == f"/ladder/matches/{ladder_match}/watch"
    points = page.locator("#rating-plot polyline.series").get_attribute("points") or ""

    played = fill.start(ladder_match, 2)
    page.wait_for_function(f"document.querySelector(\"{row} td:nth-child(2)\").textContent === 'playing'")
    fill.finish(ladder_match, played)
    page.wait_for_function(f"document.querySelector(\"{row} td:nth-child(2)\").textContent === 'done'")
    page.wait_for_selector("#chart.changed")
    story = fetch(f"{url}/api/ladder/public/bots/{bot}").json()
    replay = page.get_attribute(f"{row} a.watch", "href")
    assert replay is not None and replay == story["matches"][0]["url"] and replay.startswith("/tournaments/")
    assert page.inner_text(f"{row} a.watch") == "replay"
    assert "changed" in (page.get_attribute(f"{row}", "class") or "")
    facts = page.inner_text("#bot-facts")
    assert f"{story['bot']['mu']:.2f}" in facts and str(story["bot"]["games"]) in facts
    assert page.locator("#rating-plot polyline.series").get_attribute("points") != points
    page.click(f"{row} a.watch")
    page.wait_for_selector("#viewer[data-ready='true']")  # the replay, now that the match is done


def test_the_matches_in_progress_come_and_go(page: Page, ladder: tuple[str, LadderFill]) -> None:
    url, fill = ladder
    page.goto(f"{url}/ladder/matches")
    page.wait_for_selector("#live[data-ready='true']")
    assert page.is_visible("#empty")
    ladder_match, _ = fill.decide()
    row = f"#in-progress tr[data-match='{ladder_match}']"
    page.wait_for_selector(f"{row}.new")
    assert page.get_attribute(f"{row} a.watch", "href") == f"/ladder/matches/{ladder_match}/watch"
    assert page.inner_text(f"{row} a.watch") == "watch live"
    assert not page.is_visible("#empty")
    played = fill.start(ladder_match, 3)
    page.wait_for_selector(f"{row}.changed >> text=playing")
    fill.finish(ladder_match, played)
    page.wait_for_selector(row, state="detached")
    assert page.is_visible("#empty")
    # Once finished, it heads the results, with its replay.
    result = f"#results tbody tr:first-child[data-match='{ladder_match}']"
    page.wait_for_selector(f"{result}.new")
    assert page.inner_text(f"{result} a.watch") == "replay"
    assert (page.get_attribute(f"{result} a.watch", "href") or "").startswith("/tournaments/")


def test_long_names_fit_their_boxes(page: Page, ladder: tuple[str, LadderFill]) -> None:
    url, fill = ladder
    page.set_viewport_size({"width": 900, "height": 900})
    (long_bot,) = [row.id for row in fill.ladder.bots() if row.name == LONG]
    fill.decide()
    fill.bot(fill.participant("kay"), "failing", reason="FAIL health: " + "an-unbroken-reason-" * 12)
    for path in ("/ladder", "/ladder/bots", f"/ladder/bots/{long_bot}", "/ladder/matches", "/"):
        page.goto(url + path)
        if path != "/":
            page.wait_for_selector("#live[data-ready='true']")
        assert page.evaluate(OVERFLOW_JS) == [], path


#: A time as every ladder page writes it, in UTC.
WHEN = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"


def test_times_in_one_form_and_no_table_of_headings_alone(page: Page, ladder: tuple[str, LadderFill]) -> None:
    url, fill = ladder
    (alpha,) = [row.id for row in fill.ladder.bots() if row.name == "alpha"]
    story = fetch(f"{url}/api/ladder/public/bots/{alpha}").json()
    assert story["faults"] == [] and story["matches"]  # played, without a fault
    page.goto(f"{url}/ladder/bots/{alpha}")
    page.wait_for_selector("#live[data-ready='true']")
    assert page.is_visible("#no-faults") and not page.is_visible("#bot-faults")
    assert page.is_visible("#bot-matches") and not page.is_visible("#no-matches")
    page.goto(f"{url}/ladder/matches")
    page.wait_for_selector("#live[data-ready='true']")
    assert page.is_visible("#empty") and not page.is_visible("#in-progress")

    page.goto(f"{url}/ladder")
    page.wait_for_function("() => Number(document.getElementById('live').dataset.polls) > 0")
    assert re.fullmatch(rf"updated at {WHEN} \(UTC\)", page.inner_text("#live-state"))
    times = page.evaluate(
        "() => [...document.querySelectorAll('#leaderboard td.when')].map((c) => c.textContent)"
    )
    assert times and all(re.fullmatch(WHEN, time) or time == "—" for time in times)
    assert page.inner_text("#leaderboard thead").count("(UTC)") == 1
