"""Cities' drawing module in a real browser: what headless Chromium draws is what the replay says,
in the organiser's view and in a seat's view (which shows no other hand).

The matches are a small real Cities tournament played with ``smtourney run`` and served by the
web app; Chromium is the system's, driven by Playwright as in ``test_browser.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from typer.testing import CliRunner

from server.cli import app as cli_app
from server.web.export import export_html

from .conftest import fetch, needs_chromium, serve
from .final_table import assert_final_table

pytestmark = needs_chromium

BRACKET = """\
name: cities-web
game: cities
players: 3
rounds: 1
seed: 11
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 3
entrants:
  - {name: random-a, command: python -m bots.random}
  - {name: random-b, command: python -m bots.random}
  - {name: random-c, command: python -m bots.random}
"""

#: What the page draws, read back from the DOM.
DRAWN_JS = """() => ({
  moment: Number(document.getElementById("viewer").dataset.moment),
  seats: [...document.querySelectorAll("#board .ct-seat")].map((card) => ({
    seat: Number(card.dataset.seat),
    score: Number(card.querySelector('[data-stat="score"] .value').textContent),
    cities: [...card.querySelectorAll(".ct-city")].map((city) => Number(city.dataset.city)),
    completed: [...card.querySelectorAll("[data-completed]")].map((e) => e.dataset.completed),
    hand_size: Number(card.querySelector(".ct-hand").dataset.size),
    hand: card.querySelector(".ct-hand.hidden") ? null
      : [...card.querySelectorAll(".ct-card")].map((c) => [c.dataset.event, Number(c.dataset.count)]),
    face_down: Number(card.querySelector("[data-face-down]")?.dataset.faceDown ?? 0),
  })),
  decks: [...document.querySelectorAll("#board [data-deck] .value")].map((v) => Number(v.textContent)),
  resolving: document.querySelector("#board .ct-resolving")?.dataset.event ?? null,
  log: [...document.querySelectorAll("#board .ct-log > ol > li")].map((li) => li.dataset.event),
})"""


def expected(replay: dict[str, Any], index: int) -> dict[str, Any]:
    view = replay["moments"][index]["view"]
    return {
        "moment": index,
        "seats": [
            {
                "seat": s["seat"],
                "score": s["score"],
                "cities": [c["id"] for g in s["groups"] for c in g["cities"]],
                "completed": [e["empire"] for e in s["completed"]],
                "hand_size": s["hand_size"],
                "hand": None if s["hand"] is None else [[c["event"], c["count"]] for c in s["hand"]],
                "face_down": s["face_down"],
            }
            for s in view["seats"]
        ],
        "decks": [view["decks"]["cities"], view["decks"]["events"]],
        "resolving": None if view["resolving"] is None else view["resolving"]["event"],
        "log": [record["event"] for record in reversed(view["log"])],
    }


def assert_shows(page: Page, replay: dict[str, Any], index: int) -> dict[str, Any]:
    page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{index}'")
    drawn: dict[str, Any] = page.evaluate(DRAWN_JS)
    assert drawn == expected(replay, index)
    return drawn


@pytest.fixture(scope="module")
def cities_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three three-player Cities matches between random bots, played for real."""
    bracket = tmp_path_factory.mktemp("cities-web") / "cities-web.yaml"
    bracket.write_text(BRACKET)
    result = CliRunner().invoke(cli_app, ["run", str(bracket)])
    assert result.exit_code == 0, result.output
    return bracket.with_suffix(".db")


@pytest.fixture(scope="module")
def cities_url(cities_db: Path) -> Iterator[str]:
    with serve(cities_db) as url:
        yield url


@pytest.fixture(scope="module")
def match(cities_url: str) -> tuple[str, dict[str, Any]]:
    """The path of the match where the most events were played, and its replay."""
    (tournament,) = fetch(f"{cities_url}/api/tournaments").json()
    base = f"/tournaments/{tournament['id']}/matches"
    ids = [m["match_id"] for m in fetch(f"{cities_url}/api{base}").json()]
    replays = {i: fetch(f"{cities_url}/api{base}/{i}").json() for i in ids}
    best = max(replays, key=lambda i: replays[i]["moments"][-1]["view"]["played"])
    return f"{base}/{best}", replays[best]


def test_every_moment_of_a_served_match_is_drawn_as_the_replay_says(
    page: Page, cities_url: str, match: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    path, replay = match
    page.goto(f"{cities_url}{path}")
    page.wait_for_selector("#viewer[data-ready='true']")
    last = len(replay["moments"]) - 1
    resolving_seen = hands_seen = 0
    for index in range(last + 1):
        if index:
            page.keyboard.press("ArrowRight")
        drawn = assert_shows(page, replay, index)
        resolving_seen += drawn["resolving"] is not None
        hands_seen += all(seat["hand"] is not None for seat in drawn["seats"])
    assert resolving_seen and hands_seen  # the organiser sees every hand
    assert page.locator("#board .ct-seat").count() == 3
    final = replay["moments"][-1]["view"]
    assert [s["score"] for s in final["seats"]] == [s["score"] for s in replay["seats"]]
    screenshot = tmp_path / "cities-end.png"
    page.screenshot(path=str(screenshot), full_page=True)
    print(f"screenshot of the last moment: {screenshot}")


def test_a_seat_view_draws_its_own_hand_and_only_the_size_of_the_others(
    page: Page, cities_url: str, match: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    path, _ = match
    seat = 1
    replay = fetch(f"{cities_url}/api{path}?seat={seat}").json()
    middle = len(replay["moments"]) // 2
    page.goto(f"{cities_url}{path}?seat={seat}#m={replay['moments'][middle]['step']['seq'] + 1}")
    drawn = assert_shows(page, replay, middle)
    for shown in drawn["seats"]:
        assert (shown["hand"] is not None) == (shown["seat"] == seat)
    assert page.locator(f"#board .ct-seat.viewing[data-seat='{seat}']").count() == 1
    page.keyboard.press("End")
    assert_shows(page, replay, len(replay["moments"]) - 1)
    page.screenshot(path=str(tmp_path / "cities-seat.png"), full_page=True)


def test_the_exported_file_draws_from_disk(
    page: Page, match: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    _, replay = match
    exported = tmp_path / "cities.html"
    exported.write_text(export_html(replay), encoding="utf-8")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{exported.as_uri()}#m=20")
    assert_shows(page, replay, 20)
    page.keyboard.press("End")
    assert_shows(page, replay, len(replay["moments"]) - 1)
    assert requests and all(url.startswith("file://") for url in requests), requests


#: Text boxes whose content is wider than the box (cut or spilling over), and the seats' titles.
LAYOUT_JS = """() => ({
  overflowing: [...document.querySelectorAll(
    "#board .ct-city, #board .badge, #board .ct-group .label, #board td, #board th")]
    .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent),
  seats: [...document.querySelectorAll("#board .ct-seat header strong")].map((s) => s.textContent),
})"""


def assert_laid_out(page: Page, replay: dict[str, Any]) -> None:
    layout = page.evaluate(LAYOUT_JS)
    assert layout["overflowing"] == []
    assert layout["seats"] == [seat["name"] for seat in replay["seats"]]


def test_the_end_shows_the_score_part_by_part_and_the_tie_break(
    page: Page, cities_url: str, match: tuple[str, dict[str, Any]]
) -> None:
    path, replay = match
    last = len(replay["moments"]) - 1
    page.goto(f"{cities_url}{path}#m={last // 2}")
    assert_shows(page, replay, last // 2)
    assert_laid_out(page, replay)
    assert page.locator("#board .ct-end").count() == 0
    page.keyboard.press("End")
    assert_shows(page, replay, last)
    assert_laid_out(page, replay)
    summary, seats = replay["summary"], replay["seats"]
    drawn = assert_final_table(page, replay, "#board .ct-final")
    assert drawn["parts"][0][2:] == [str(len(done)) for done in summary["completed"]]
    held = page.locator("#board .ct-final tr[data-row='cities_held'] td").all_inner_texts()[1:]
    assert held == [str(n) for n in summary["cities_held"]]
    why = page.inner_text("#board .ct-tie-break")
    scores = [seat["score"] for seat in seats]
    if len(set(scores)) < len(scores):  # equal scores: the cities held decided, and say so
        assert "cities held" in why and all(
            seat["name"] in why for seat in seats if scores.count(seat["score"]) > 1
        )
    else:
        assert why.startswith("No equal scores")


def test_a_seat_view_numbers_each_step_as_the_organisers_view_does(
    page: Page, cities_url: str, match: tuple[str, dict[str, Any]]
) -> None:
    path, replay = match
    seat = 1
    as_seat = fetch(f"{cities_url}/api{path}?seat={seat}").json()
    numbers = [0] + [m["step"]["seq"] + 1 for m in as_seat["moments"][1:]]
    skipped = [i for i, n in enumerate(numbers) if n != i]
    assert skipped, "the seat saw every step: the numbering check would be empty"
    page.goto(f"{cities_url}{path}?seat={seat}")
    page.wait_for_selector("#viewer[data-ready='true']")
    rows = page.evaluate(
        """() => [...document.querySelectorAll(".step-row")].slice(1)
          .map((r) => [Number(r.dataset.step), r.querySelector(".index").textContent])"""
    )
    assert rows == [[n, f"#{n}"] for n in numbers[1:]]
    for index in skipped[:: max(1, len(skipped) // 5)]:  # the organiser's step of that number is this step
        organiser, seen = replay["moments"][numbers[index]]["step"], as_seat["moments"][index]["step"]
        assert (organiser["seq"], organiser["kind"], organiser["seat"]) == (
            seen["seq"],
            seen["kind"],
            seen["seat"],
        )
        page.goto(f"{cities_url}{path}?seat={seat}#m={numbers[index]}")
        page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{index}'")
        assert page.get_attribute("#viewer", "data-step") == str(numbers[index])
        assert page.inner_text("#step .index").startswith(f"step {numbers[index]} ")


#: What the page says of the moment shown: the bar, the step number everywhere else, and the turn
#: heading the list puts above the current step.
UNITS_JS = """() => {
  const rows = [...document.querySelectorAll(".step-row")];
  const at = rows.findIndex((row) => row.classList.contains("current"));
  const heading = rows.slice(0, at + 1).reverse().find((row) => row.querySelector(".turn-tag"));
  return {
    position: document.getElementById("position").textContent,
    step: document.getElementById("viewer").dataset.step,
    hash: location.hash,
    row: rows[at].querySelector(".index") ? rows[at].querySelector(".index").textContent : "",
    heading: heading ? heading.querySelector(".turn-tag").textContent : "",
    total: document.getElementById("step-count").textContent,
  };
}"""


@pytest.mark.parametrize("seat", [None, 1])
def test_bar_list_and_address_count_steps_and_turns_alike(
    page: Page, cities_url: str, match: tuple[str, dict[str, Any]], seat: int | None
) -> None:
    path, _ = match
    query = "" if seat is None else f"?seat={seat}"
    replay = fetch(f"{cities_url}/api{path}{query}").json()
    moments = replay["moments"]
    total = moments[-1]["step"]["seq"] + 1
    page.goto(f"{cities_url}{path}{query}")
    page.wait_for_selector("#viewer[data-ready='true']")
    ends = [i for i in range(1, len(moments) - 1) if moments[i]["turn"] != moments[i - 1]["turn"]]
    assert ends, "no turn ended: the check would be empty"
    for index in ends[:: max(1, len(ends) // 6)]:  # a step that ends a turn belongs to that turn
        number = moments[index]["step"]["seq"] + 1
        page.goto(f"{cities_url}{path}{query}#m={number}")
        page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{index}'")
        page.wait_for_function(f"location.hash === '#m={number}'")
        said = page.evaluate(UNITS_JS)
        turn = moments[index - 1]["turn"]
        assert said == {
            "position": f"step {number} of {total} · turn {turn}",
            "step": str(number),
            "hash": f"#m={number}",
            "row": f"#{number}",
            "heading": f"turn {turn}",
            "total": f"{total} steps",
        }
    page.fill("#turn", str(moments[ends[0]]["turn"]))  # going to a turn shows its first step
    page.keyboard.press("Enter")
    first = ends[0] + 1
    page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{first}'")
    assert page.evaluate(UNITS_JS)["heading"] == f"turn {moments[ends[0]]['turn']}"
    page.evaluate("document.activeElement.blur()")  # the keys move through the match outside the turn box
    page.keyboard.press("Shift+ArrowLeft")  # back to the first step of the turn before
    page.wait_for_function(f"document.getElementById('viewer').dataset.moment !== '{first}'")
    assert page.evaluate(UNITS_JS)["heading"] == f"turn {moments[ends[0] - 1]['turn']}"
