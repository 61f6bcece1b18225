"""Bruges' drawing module in a real browser: what headless Chromium draws is what the replay says,
in the organiser's view and in a seat's view (which shows no other hand's persons).

The matches are a small real Bruges tournament played with ``smtourney run`` and served by the web
app; Chromium is the system's, driven by Playwright as in ``test_browser.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from typer.testing import CliRunner

from server.cli import app as cli_app

from .conftest import fetch, needs_chromium, overlap, serve
from .final_table import assert_final_table

pytestmark = needs_chromium

BRACKET = """\
name: bruges-web
game: bruges
players: 2
rounds: 1
seed: 5
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 2
entrants:
  - {name: heuristic, command: python -m bots.bruges}
  - {name: random, command: python -m bots.random}
"""

#: What the page draws, read back from the SVG.
DRAWN_JS = """() => ({
  moment: Number(document.getElementById("viewer").dataset.moment),
  seats: [...document.querySelectorAll("#board .bg-seat")].map((g) => ({
    seat: Number(g.dataset.seat),
    score: Number(g.dataset.score),
    persons: [...g.querySelectorAll(".bg-house")].map((h) => h.dataset.person),
    houses: [...g.querySelectorAll(".bg-house")].map((h) => h.dataset.colour),
    canals: [0, 1].map((s) => g.querySelectorAll(`.bg-canal.built[data-section="${s}"]`).length),
    reputation: Number(g.querySelector(".bg-reputation.here").dataset.step),
    workers: [...g.querySelectorAll(".bg-worker")].map((w) => Number(w.dataset.count)),
    threats: [...g.querySelectorAll(".bg-threat")].reduce((sum, t) => sum + Number(t.dataset.count), 0),
    hand_size: Number(g.querySelector(".bg-hand").dataset.size),
    hand: g.querySelector(".bg-hand").dataset.hidden ? null
      : [...g.querySelectorAll(".bg-card")].map((c) => c.dataset.card),
  })),
  dice: [...document.querySelectorAll("#board .bg-die")].map((d) => d.dataset.value),
  piles: [...document.querySelectorAll("#board .bg-pile")]
    .map((p) => [Number(p.dataset.size), p.dataset.top]),
})"""

COLOURS = ["blue", "brown", "red", "purple", "yellow"]


def expected(replay: dict[str, Any], index: int) -> dict[str, Any]:
    view = replay["moments"][index]["view"]
    return {
        "moment": index,
        "seats": [
            {
                "seat": s["seat"],
                "score": s["score"],
                "persons": [h["person"]["id"] if h["person"] else "" for h in s["houses"]],
                "houses": [h["colour"] for h in s["houses"]],
                "canals": s["canals"],
                "reputation": s["reputation"],
                "workers": [s["workers"][c] for c in COLOURS],
                "threats": sum(s["threats"].values()),
                "hand_size": s["hand_size"],
                "hand": None if s["hand"] is None else [c["id"] for c in s["hand"]],
            }
            for s in view["seats"]
        ],
        "dice": [str(view["dice"][c]) if view["dice"] else "" for c in COLOURS],
        "piles": [[p["size"], p["top"] or ""] for p in view["piles"]],
    }


def assert_shows(page: Page, replay: dict[str, Any], index: int) -> dict[str, Any]:
    page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{index}'")
    drawn: dict[str, Any] = page.evaluate(DRAWN_JS)
    assert drawn == expected(replay, index)
    return drawn


@pytest.fixture(scope="module")
def bruges_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    bracket = tmp_path_factory.mktemp("bruges-web") / "bruges-web.yaml"
    bracket.write_text(BRACKET)
    result = CliRunner().invoke(cli_app, ["run", str(bracket)])
    assert result.exit_code == 0, result.output
    with serve(bracket.with_suffix(".db")) as url:
        yield url


@pytest.fixture(scope="module")
def match(bruges_url: str) -> str:
    (tournament,) = fetch(f"{bruges_url}/api/tournaments").json()
    base = f"/tournaments/{tournament['id']}/matches"
    first = fetch(f"{bruges_url}/api{base}").json()[0]["match_id"]
    return f"{base}/{first}"


def test_moments_of_a_served_match_are_drawn_as_the_replay_says(
    page: Page, bruges_url: str, match: str, tmp_path: Path
) -> None:
    replay = fetch(f"{bruges_url}/api{match}").json()
    last = len(replay["moments"]) - 1
    page.goto(f"{bruges_url}{match}")
    page.wait_for_selector("#viewer[data-ready='true']")
    for index in range(40):
        if index:
            page.keyboard.press("ArrowRight")
        assert_shows(page, replay, index)
    persons_seen = 0
    for index in range(40, last + 1, max(1, last // 25)):
        page.goto(f"{bruges_url}{match}#m={index}")
        drawn = assert_shows(page, replay, index)
        persons_seen += sum(1 for s in drawn["seats"] for p in s["persons"] if p)
        assert all(s["hand"] is not None for s in drawn["seats"])  # the organiser sees every hand
    page.keyboard.press("End")
    final = assert_shows(page, replay, last)
    assert persons_seen and [s["score"] for s in final["seats"]] == [s["score"] for s in replay["seats"]]
    page.screenshot(path=str(tmp_path / "bruges-end.png"), full_page=True)


def test_a_seat_view_draws_its_own_hand_and_only_the_colours_of_the_other(
    page: Page, bruges_url: str, match: str, tmp_path: Path
) -> None:
    seat = 1
    replay = fetch(f"{bruges_url}/api{match}?seat={seat}").json()
    middle = len(replay["moments"]) // 2
    page.goto(f"{bruges_url}{match}?seat={seat}#m={replay['moments'][middle]['step']['seq'] + 1}")
    drawn = assert_shows(page, replay, middle)
    other = drawn["seats"][1 - seat]
    assert drawn["seats"][seat]["hand"] is not None
    assert other["hand"] is None or all(card for card in other["hand"])  # only cards back from play
    assert page.locator(f"#board .bg-seat.viewing[data-seat='{seat}']").count() == 1
    page.keyboard.press("End")
    assert_shows(page, replay, len(replay["moments"]) - 1)
    page.screenshot(path=str(tmp_path / "bruges-seat.png"), full_page=True)


#: Every boxed label's rectangle and its box's, and every seat panel's title.
LAYOUT_JS = """() => ({
  boxed: [...document.querySelectorAll("#board .bg-boxed")].map((g) => {
    const box = g.querySelector("rect").getBoundingClientRect();
    const label = g.querySelector("text").getBoundingClientRect();
    return { text: g.querySelector("text").textContent, box: [box.left, box.top, box.right, box.bottom],
      label: [label.left, label.top, label.right, label.bottom] };
  }),
  titles: [...document.querySelectorAll("#board .bg-title")].map((t) => t.textContent),
  canals: [...document.querySelectorAll("#board .bg-canal")].map((c) => {
    const r = c.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  }),
  houses: [...document.querySelectorAll("#board .bg-house")].map((h) => {
    const r = h.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  }),
  threats: [...document.querySelectorAll("#board .bg-seat")].map((g) =>
    [...g.querySelectorAll(".bg-threat")]
      .map((t) => [t.dataset.colour, t.querySelector("text").textContent])),
})"""


def assert_labels_fit(page: Page, replay: dict[str, Any], index: int) -> None:
    layout = page.evaluate(LAYOUT_JS)
    assert layout["boxed"], "no boxed labels drawn"
    for item in layout["boxed"]:
        (bl, bt, br, bb), (ll, lt, lr, lb) = item["box"], item["label"]
        assert bl - 0.5 <= ll and lr <= br + 0.5 and bt - 0.5 <= lt and lb <= bb + 0.5, item
    for canal in layout["canals"]:  # nothing is drawn across a canal space
        for house in layout["houses"]:
            assert not overlap(canal, house), (canal, house)
    view = replay["moments"][index]["view"]
    labels = {item["text"] for item in layout["boxed"]}
    for shown in view["seats"]:  # names whole, never cut
        assert {card["person"] for card in shown["hand"] or []} <= labels
        assert {house["person"]["person"] for house in shown["houses"] if house["person"]} <= labels
    for seat, title, threats in zip(replay["seats"], layout["titles"], layout["threats"], strict=True):
        assert title.startswith(f"{seat['name']} (seat {seat['seat']})")
        counts = view["seats"][seat["seat"]]["threats"]
        assert threats == [[c, f"\u00d7{n}"] for c, n in counts.items() if n]


def test_labels_fit_their_boxes_names_show_and_the_end_explains_the_score(
    page: Page, bruges_url: str, match: str
) -> None:
    replay = fetch(f"{bruges_url}/api{match}").json()
    last = len(replay["moments"]) - 1
    middle = last // 2
    page.goto(f"{bruges_url}{match}#m={middle}")
    assert_shows(page, replay, middle)
    assert_labels_fit(page, replay, middle)
    assert page.locator("#board .bg-end").count() == 0  # the breakdown belongs to the end
    page.keyboard.press("End")
    assert_shows(page, replay, last)
    assert_labels_fit(page, replay, last)
    drawn = assert_final_table(page, replay, "#board .bg-final")
    assert [part[0] for part in drawn["parts"][:2]] == ["start", "play"]  # the points of play are a row
    assert "guilders" in page.inner_text("#board .bg-tie-break")
    page.screenshot(path="/tmp/bruges-end-check.png", full_page=True)


def test_the_viewing_seat_is_marked(page: Page, bruges_url: str, match: str) -> None:
    seat = 0
    replay = fetch(f"{bruges_url}/api{match}?seat={seat}").json()
    page.goto(f"{bruges_url}{match}?seat={seat}#m=0")
    assert_shows(page, replay, 0)
    assert page.locator(f"#board .bg-seat[data-seat='{seat}'] .bg-viewing-mark").is_visible()
    assert page.locator("#board .bg-viewing-mark").count() == 1
    assert_labels_fit(page, replay, 0)


def test_a_legend_says_what_the_discs_triangles_track_and_rows_mean_and_no_stray_chips(
    page: Page, bruges_url: str, match: str
) -> None:
    replay = fetch(f"{bruges_url}/api{match}").json()
    steps = replay["moments"][0]["view"]["reputation_points"]
    page.goto(f"{bruges_url}{match}#m=5")
    assert_shows(page, replay, 5)
    legend = {
        key: page.inner_text(f"#board .bg-legend [data-legend='{key}']")
        for key in ("workers", "threats", "reputation", "canals", "statues")
    }
    assert legend["workers"].startswith("Discs") and legend["threats"].startswith("Triangles")
    assert f"{steps[0]}\N{EN DASH}{steps[-1]}" in legend["reputation"] and "Rows A and B" in legend["canals"]
    assert page.locator("#board .chip").count() == 0  # seats are named in the picture, not by bare numbers
