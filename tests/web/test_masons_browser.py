"""Masons' drawing module in a real browser: the SVG board headless Chromium draws (walls, towers,
houses, cities) and the seat panels are what the replay says, in the organiser's view and in a
seat's view (which shows no other hand).

The matches are a small real Masons tournament played with ``smtourney run`` and served by the
web app; Chromium is the system's, driven by Playwright as in ``test_browser.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from typer.testing import CliRunner

from server.cli import app as cli_app
from server.web.export import export_html

from .conftest import fetch, needs_chromium, overlap, serve
from .final_table import assert_final_table

pytestmark = needs_chromium

BRACKET = """\
name: masons-web
game: masons
players: 3
rounds: 1
seed: 11
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 2
entrants:
  - {name: greedy, command: python -m bots.masons}
  - {name: random-b, command: python -m bots.random}
  - {name: random-c, command: python -m bots.random}
"""

#: What the page draws, read back from the DOM.
DRAWN_JS = """() => ({

  moment: Number(document.getElementById("viewer").dataset.moment),
  spaces: document.querySelectorAll("#board polygon.ms-space").length,
  walls: [...document.querySelectorAll("#board .ms-wall")]
    .map((w) => Number(w.dataset.line)).sort((a, b) => a - b),
  towers: [...document.querySelectorAll("#board .ms-tower")]
    .map((t) => [Number(t.dataset.point), t.dataset.colour]),
  houses: [...document.querySelectorAll("#board .ms-house")].length,
  city_spaces: [...document.querySelectorAll("#board polygon.ms-space.city")]
    .map((p) => Number(p.dataset.space)).sort((a, b) => a - b),
  cities: [...document.querySelectorAll("#board .ms-city")].map((c) => Number(c.dataset.size)),
  seats: [...document.querySelectorAll("#board .ms-seat")].map((card) => ({
    seat: Number(card.dataset.seat),
    score: Number(card.querySelector('[data-stat="score"] .value').textContent),
    hand: card.querySelector(".ms-hand.hidden") ? null
      : [...card.querySelectorAll(".ms-card")].map((c) => [c.dataset.card, Number(c.dataset.count)]),
  })),
})"""


def expected(replay: dict[str, Any], index: int) -> dict[str, Any]:
    view = replay["moments"][index]["view"]
    return {
        "moment": index,
        "spaces": 48,
        "walls": sorted(view["walls"]),
        "towers": [[t["point"], t["colour"]] for t in view["towers"]],
        "houses": sum(h["count"] for h in view["houses"]),
        "city_spaces": sorted(sp for city in view["cities"] for sp in city["spaces"]),
        "cities": [len(city["spaces"]) for city in view["cities"]],
        "seats": [
            {
                "seat": s["seat"],
                "score": s["score"],
                "hand": None if s["hand"] is None else [[c["card"], c["count"]] for c in s["hand"]],
            }
            for s in view["seats"]
        ],
    }


def assert_shows(page: Page, replay: dict[str, Any], index: int) -> dict[str, Any]:
    page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{index}'")
    drawn: dict[str, Any] = page.evaluate(DRAWN_JS)
    assert drawn == expected(replay, index)
    return drawn


@pytest.fixture(scope="module")
def masons_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    bracket = tmp_path_factory.mktemp("masons-web") / "masons-web.yaml"
    bracket.write_text(BRACKET)
    result = CliRunner().invoke(cli_app, ["run", str(bracket)])
    assert result.exit_code == 0, result.output
    with serve(bracket.with_suffix(".db")) as url:
        yield url


@pytest.fixture(scope="module")
def match(masons_url: str) -> tuple[str, dict[str, Any]]:
    """The path of the match that ended with the most cities, and its replay."""
    (tournament,) = fetch(f"{masons_url}/api/tournaments").json()
    base = f"/tournaments/{tournament['id']}/matches"
    ids = [m["match_id"] for m in fetch(f"{masons_url}/api{base}").json()]
    replays = {i: fetch(f"{masons_url}/api{base}/{i}").json() for i in ids}
    best = max(replays, key=lambda i: len(replays[i]["moments"][-1]["view"]["cities"]))
    return f"{base}/{best}", replays[best]


def test_every_moment_of_a_served_match_is_drawn_as_the_replay_says(
    page: Page, masons_url: str, match: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    path, replay = match
    page.goto(f"{masons_url}{path}")
    page.wait_for_selector("#viewer[data-ready='true']")
    last = len(replay["moments"]) - 1
    cities_seen = 0
    for index in range(last + 1):
        if index:
            page.keyboard.press("ArrowRight")
        drawn = assert_shows(page, replay, index)
        cities_seen += bool(drawn["cities"])
        assert all(seat["hand"] is not None for seat in drawn["seats"])  # the organiser sees every hand
    assert cities_seen and drawn["walls"] and drawn["towers"]
    screenshot = tmp_path / "masons-end.png"
    page.screenshot(path=str(screenshot), full_page=True)
    print(f"screenshot of the last moment: {screenshot}")


def test_the_end_shows_each_scoring_round_adding_up_to_the_score_and_the_winner(
    page: Page, masons_url: str, match: tuple[str, dict[str, Any]]
) -> None:
    path, replay = match
    last = len(replay["moments"]) - 1
    page.goto(f"{masons_url}{path}#m={last // 2}")
    page.wait_for_selector("#viewer[data-ready='true']")
    assert page.locator("#board .ms-end").count() == 0  # the table belongs to the end
    page.keyboard.press("End")
    drawn = assert_final_table(page, replay, "#board .ms-final")
    assert len(drawn["parts"]) >= len(replay["moments"][-1]["view"]["cities"])
    assert drawn["parts"][0][1].startswith("scoring round 1: city ")
    hands = page.locator("#board .ms-final tr[data-row='hand'] td").all_inner_texts()[1:]
    assert hands == [str(seat["hand_size"]) for seat in replay["moments"][-1]["view"]["seats"]]
    listed = page.inner_text("#steps")  # the decisions name cards in words, never by their ids
    assert "plays " in listed and not re.search(r"\b(city|land)_[a-z_]+", listed) and "?" not in listed
    cards = page.locator("#board .ms-card").all_inner_texts()
    assert cards and not any("_" in card for card in cards)


def test_a_seat_view_draws_its_own_hand_and_only_the_size_of_the_others(
    page: Page, masons_url: str, match: tuple[str, dict[str, Any]]
) -> None:
    path, _ = match
    seat = 1
    replay = fetch(f"{masons_url}/api{path}?seat={seat}").json()
    middle = len(replay["moments"]) // 2
    page.goto(f"{masons_url}{path}?seat={seat}#m={replay['moments'][middle]['step']['seq'] + 1}")
    drawn = assert_shows(page, replay, middle)
    for shown in drawn["seats"]:
        assert (shown["hand"] is not None) == (shown["seat"] == seat)
    assert page.locator(f"#board .ms-seat.viewing[data-seat='{seat}']").count() == 1


def test_the_exported_file_draws_from_disk(
    page: Page, match: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    _, replay = match
    exported = tmp_path / "masons.html"
    exported.write_text(export_html(replay), encoding="utf-8")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{exported.as_uri()}#m=10")
    assert_shows(page, replay, 10)
    page.keyboard.press("End")
    assert_shows(page, replay, len(replay["moments"]) - 1)
    assert requests and all(url.startswith("file://") for url in requests), requests


#: The board's labels with their rectangles, and the hand cards' and seats' texts.
LABELS_JS = """() => ({
  labels: [...document.querySelectorAll("#board .ms-label")].map((t) => {
    const r = t.getBoundingClientRect();
    return { kind: t.classList[1], id: Number(t.dataset[t.classList[1]]), text: t.textContent,
      box: [r.left, r.top, r.right, r.bottom] };
  }),
  cards: [...document.querySelectorAll("#board .ms-card")].map((c) => c.textContent),
  seats: [...document.querySelectorAll("#board .ms-seat header strong")].map((s) => s.textContent),
})"""


def assert_labelled(page: Page, replay: dict[str, Any]) -> None:
    drawn = page.evaluate(LABELS_JS)
    by_kind: dict[str, dict[int, str]] = {}
    for label in drawn["labels"]:
        by_kind.setdefault(label["kind"], {})[label["id"]] = label["text"]
    assert by_kind["point"] == {p: f"{p // 7},{p % 7}" for p in range(35)}
    assert by_kind["space"] == {s: str(s) for s in range(48)}
    assert by_kind["line"] == {n: str(n) for n in range(82)}
    boxes = [label["box"] for label in drawn["labels"]]
    for i, a in enumerate(boxes):  # no label is drawn over another
        assert not any(overlap(a, b) for b in boxes[i + 1 :]), drawn["labels"][i]
    assert drawn["cards"] and not any("_" in card for card in drawn["cards"])
    assert drawn["seats"] == [seat["name"] for seat in replay["seats"]]


def test_the_board_is_labelled_as_the_move_list_names_it(
    page: Page, masons_url: str, match: tuple[str, dict[str, Any]]
) -> None:
    path, replay = match
    last = len(replay["moments"]) - 1
    middle = last // 2
    page.goto(f"{masons_url}{path}#m={middle}")
    assert_shows(page, replay, middle)
    assert_labelled(page, replay)
    walls = [m["step"]["text"] for m in replay["moments"][1:] if m["step"]["kind"] == "wall"]
    assert walls and all(re.search(r"line \d+ \(\d,\d\)-\(\d,\d\)", text) for text in walls)
    page.keyboard.press("End")
    assert_shows(page, replay, last)
    assert_labelled(page, replay)
