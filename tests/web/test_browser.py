"""The replay viewer in a real browser: what headless Chromium draws is what the replay says.

Runs the system's Chromium (Debian's ``chromium`` package, which ``.ci/run`` installs) through
Playwright; nothing is downloaded.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from server.web import export
from server.web.export import export_html

from .conftest import fetch, needs_chromium
from .final_table import assert_final_table

pytestmark = needs_chromium

#: What the page draws, read back from the DOM: each city's squares, wall drawings and numbers.
DRAWN_JS = """() => ({
  moment: Number(document.getElementById("viewer").dataset.moment),
  cities: [...document.querySelectorAll("#board .city")].map((card) => ({
    seat: Number(card.dataset.seat),
    cells: [...card.querySelectorAll(".cell")].map((cell) => cell.dataset.code).join(""),
    walls: card.querySelectorAll('.cell[data-code="W"] rect.wall').length,
    vp: Number(card.querySelector('[data-stat="vp"] .value').textContent),
    score: Number(card.querySelector('[data-stat="score"] .value').textContent),
    strikes: Number(card.querySelector(".badge.strike")?.dataset.strikes ?? 0),
  })),
  dice: [...document.querySelectorAll("#board .dice-panel [data-die]")].map(
    (die) => [die.dataset.face, die.dataset.kept === "true", die.dataset.rotated === "true"]),
  pirates: document.querySelectorAll("#board .pirate-panel .pirate-box.marked").length,
  step: document.querySelector(".step-row.current").dataset.moment,
})"""


def expected(replay: dict[str, Any], index: int) -> dict[str, Any]:
    view = replay["moments"][index]["view"]
    pirates = view["pirates"]
    steps = [m["step"] for m in replay["moments"][1 : index + 1]]
    return {
        "moment": index,
        "cities": [
            {
                "seat": seat,
                "cells": c["cells"],
                "walls": c["walls"],
                "vp": c["vp"],
                "score": c["score"],
                "strikes": sum(1 for s in steps if s["strike"] and s["seat"] == seat),
            }
            for seat, c in enumerate(view["cities"])
        ],
        "dice": [  # a die not rolled yet this turn shows no face
            ["" if view["rolls"] == 0 else face, kept, rotated]
            for face, kept, rotated in zip(view["dice"], view["kept"], view["rotated"], strict=True)
        ],
        "pirates": min(pirates["boxes"], len(pirates["strengths"]) * pirates["per_row"]),
        "step": str(index),
    }


def assert_shows(page: Page, replay: dict[str, Any], index: int) -> None:
    page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{index}'")
    assert page.evaluate(DRAWN_JS) == expected(replay, index)


def wall_total(replay: dict[str, Any], index: int) -> int:
    return sum(city["walls"] for city in replay["moments"][index]["view"]["cities"])


@pytest.fixture(scope="module")
def walled(base_url: str, tournament_id: int, match_ids: list[str]) -> tuple[str, dict[str, Any]]:
    """The match whose cities end with the most walls, and its replay."""
    replays = {
        match_id: fetch(f"{base_url}/api/tournaments/{tournament_id}/matches/{match_id}").json()
        for match_id in match_ids
    }
    match_id = max(replays, key=lambda m: wall_total(replays[m], -1))
    assert wall_total(replays[match_id], -1) > 0, "no wall was built: the drawing check would be empty"
    return match_id, replays[match_id]


def test_stepping_through_a_served_match_draws_each_moment(
    page: Page,
    base_url: str,
    tournament_id: int,
    walled: tuple[str, dict[str, Any]],
    tmp_path: Path,
) -> None:
    match_id, replay = walled
    url = f"{base_url}/tournaments/{tournament_id}/matches/{match_id}"
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(url)
    page.wait_for_selector("#viewer[data-ready='true']")
    assert_shows(page, replay, 0)

    for _ in range(40):
        page.keyboard.press("ArrowRight")
    assert_shows(page, replay, 40)
    page.wait_for_function("location.hash === '#m=40'")
    for _ in range(3):
        page.click("#back")
    assert_shows(page, replay, 37)

    page.keyboard.press("End")
    last = len(replay["moments"]) - 1
    assert_shows(page, replay, last)
    screenshot = tmp_path / f"replay-{match_id}-end.png"
    page.screenshot(path=str(screenshot), full_page=True)
    print(f"screenshot of the last moment: {screenshot}")

    page.fill("#turn", "5")
    page.keyboard.press("Enter")
    turn5 = 1 + next(i for i, m in enumerate(replay["moments"]) if m["view"]["turn"] >= 5)  # its first step
    assert_shows(page, replay, turn5)

    page.select_option("#speed", "30")
    page.click("#play")
    page.wait_for_function(f"Number(document.getElementById('viewer').dataset.moment) > {turn5 + 3}")
    page.click("#play")
    assert page.get_attribute("#viewer", "data-playing") == "false"
    paused = int(page.get_attribute("#viewer", "data-moment") or -1)
    page.wait_for_timeout(200)
    assert_shows(page, replay, paused)

    assert all(u.startswith(base_url) for u in requests), [u for u in requests if not u.startswith(base_url)]


def test_a_link_to_a_moment_opens_at_that_moment(
    page: Page, base_url: str, tournament_id: int, walled: tuple[str, dict[str, Any]]
) -> None:
    match_id, replay = walled
    moment = next(i for i in range(len(replay["moments"])) if wall_total(replay, i) > 0)  # a wall just built
    page.goto(f"{base_url}/tournaments/{tournament_id}/matches/{match_id}#m={moment}")
    assert_shows(page, replay, moment)
    step = replay["moments"][moment]["step"]
    assert step["text"] in page.inner_text("#step")
    page.evaluate("location.hash = '#m=3'")
    assert_shows(page, replay, 3)


def test_the_exported_file_works_from_disk(
    page: Page, walled: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    _, replay = walled
    exported = tmp_path / "replay.html"
    exported.write_text(export_html(replay), encoding="utf-8")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    last = len(replay["moments"]) - 1
    page.goto(f"{exported.as_uri()}#m={last - 1}")
    assert_shows(page, replay, last - 1)
    page.click("#forward")
    assert_shows(page, replay, last)
    page.wait_for_function(f"location.hash === '#m={last}'")
    page.keyboard.press("Home")
    assert_shows(page, replay, 0)
    assert requests and all(url.startswith("file://") for url in requests), requests


def test_strikes_and_forfeits_are_shown(page: Page, base_url: str, tournament_id: int) -> None:
    listed = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches?entrant=faulty").json()
    match_id = listed[0]["match_id"]
    replay = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches/{match_id}").json()
    (faulty,) = [s for s in replay["seats"] if s["name"] == "faulty"]
    struck = [m["index"] for m in replay["moments"] if m["step"] and m["step"]["strike"]]
    assert len(struck) == faulty["strikes"] == 3 and faulty["forfeited"]
    page.goto(f"{base_url}/tournaments/{tournament_id}/matches/{match_id}#m={struck[0]}")
    assert_shows(page, replay, struck[0])
    assert replay["moments"][struck[0]]["step"]["strike"] in page.inner_text(".current-step.struck")
    card = f"#board .city[data-seat='{faulty['seat']}']"
    assert page.locator(f"{card} .badge.forfeited").count() == 0
    page.goto(f"{base_url}/tournaments/{tournament_id}/matches/{match_id}#m={struck[-1]}")
    assert_shows(page, replay, struck[-1])
    assert page.inner_text(f"{card} .badge.forfeited") == f"forfeited: {faulty['forfeit_reason']}"
    assert page.locator(".step-row.struck").count() == 3


def latencies(page: Page, seat: int) -> int:
    """Reply times the decision list shows for ``seat``'s steps."""
    return page.locator(f".step-row[data-seat='{seat}'] .latency").count()


def view_loaded(page: Page, seat: str) -> None:
    page.wait_for_selector(f"#viewer[data-viewer-seat='{seat}']:not([data-loading])")


def test_switching_seats_redraws_that_seats_view_and_the_url_follows(
    page: Page, base_url: str, tournament_id: int, walled: tuple[str, dict[str, Any]]
) -> None:
    match_id, replay = walled
    path = f"/tournaments/{tournament_id}/matches/{match_id}"
    as_seat = fetch(f"{base_url}/api{path}?seat=1").json()
    moment = 40
    seq = replay["moments"][moment]["step"]["seq"]
    there = max(m["index"] for m in as_seat["moments"] if m["index"] == 0 or m["step"]["seq"] <= seq)
    page.goto(f"{base_url}{path}#m={moment}")
    assert_shows(page, replay, moment)
    assert page.input_value("#seat-view") == "" and latencies(page, 0) > 0 and latencies(page, 1) > 0

    page.select_option("#seat-view", "1")
    view_loaded(page, "1")
    assert_shows(page, as_seat, there)

    def number(index: int) -> int:  # the organiser's number of a step shown in seat 1's view
        return int(as_seat["moments"][index]["step"]["seq"]) + 1 if index else 0

    assert page.url == f"{base_url}{path}?seat=1#m={number(there)}"
    assert latencies(page, 0) == 0 and latencies(page, 1) > 0  # the other seat's reply times are gone
    assert page.get_attribute("#export-link", "href") == f"{path}/export?seat=1"
    page.keyboard.press("ArrowRight")  # the keys step through the match again, not through the seats
    assert_shows(page, as_seat, there + 1)
    page.wait_for_function(f"location.search === '?seat=1' && location.hash === '#m={number(there + 1)}'")

    page.reload()  # the URL alone brings the same view back
    view_loaded(page, "1")
    assert_shows(page, as_seat, there + 1)
    assert page.input_value("#seat-view") == "1" and latencies(page, 0) == 0

    page.select_option("#seat-view", "")
    view_loaded(page, "")
    back = replay["moments"][number(there + 1)]
    assert_shows(page, replay, back["index"])  # here every step is seen: the moment is the step's number
    page.wait_for_function(f"location.href === '{base_url}{path}#m={back['index']}'")
    assert latencies(page, 0) > 0 and page.get_attribute("#export-link", "href") == f"{path}/export"


def test_a_view_that_cannot_be_loaded_says_why_and_keeps_the_one_shown(
    page: Page, page_errors: list[str], base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    path = f"/tournaments/{tournament_id}/matches/{match_ids[0]}"
    page.route("**/api/**?seat=0", lambda route: route.fulfill(status=404, json={"error": "gone away"}))
    page.goto(f"{base_url}{path}#m=5")
    page.wait_for_selector("#viewer[data-ready='true']")
    page.select_option("#seat-view", "0")
    page.wait_for_function("document.getElementById('view-error').textContent !== ''")
    assert page.inner_text("#view-error") == "Cannot show that view: gone away"
    assert page.input_value("#seat-view") == "" and page.get_attribute("#viewer", "data-viewer-seat") == ""
    assert page.url == f"{base_url}{path}#m=5"
    # The refused view is the one error on the console: the browser reports the 404 it was answered.
    assert page_errors == ["Failed to load resource: the server responded with a status of 404 (Not Found)"]
    page_errors.clear()


def test_a_forfeit_shows_in_the_opponents_view_without_its_strikes(
    page: Page, base_url: str, tournament_id: int
) -> None:
    listed = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches?entrant=faulty").json()
    match_id = listed[0]["match_id"]
    (faulty,) = [s for s in listed[0]["seats"] if s["name"] == "faulty"]
    other = 1 - faulty["seat"]
    path = f"/api/tournaments/{tournament_id}/matches/{match_id}?seat={other}"
    replay = fetch(base_url + path).json()
    page.goto(f"{base_url}/tournaments/{tournament_id}/matches/{match_id}?seat={other}#m=0")
    assert_shows(page, replay, 0)
    page.keyboard.press("End")
    assert_shows(page, replay, len(replay["moments"]) - 1)
    card = f"#board .city[data-seat='{faulty['seat']}']"
    assert page.inner_text(f"{card} .badge.forfeited").startswith("forfeited: ")
    assert page.locator(f"{card} .badge.strike").count() == 0
    assert page.locator(".step-row.struck").count() == 0


def test_an_exported_seat_view_works_from_disk_and_keeps_its_seat(
    page: Page, base_url: str, tournament_id: int, walled: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    match_id, _ = walled
    replay = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches/{match_id}?seat=0").json()
    exported = tmp_path / "seat0.html"
    exported.write_text(export_html(replay), encoding="utf-8")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{exported.as_uri()}#m=60")
    assert_shows(page, replay, 60)
    assert page.is_disabled("#seat-view") and page.input_value("#seat-view") == "0"
    assert latencies(page, 1) == 0 and latencies(page, 0) > 0
    assert requests and all(url.startswith("file://") for url in requests), requests


def test_the_minimal_module_of_the_docs_draws_its_game(
    page: Page, walled: tuple[str, dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/web-viewer.md's example module, for a made-up game, through the one registration API."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "web-viewer.md").read_text(encoding="utf-8")
    (example,) = [
        b for b in re.findall(r"```js\n(.*?)```", docs, re.DOTALL) if "draw(board, view, ctx) {\n" in b
    ]
    _, replay = walled
    made_up = copy.deepcopy(replay)
    made_up["match"].update(game="my_game", title="My game")
    for moment in made_up["moments"]:
        moment["view"] = {"scores": [moment["index"], -moment["index"]], "pile": moment["index"] * 2}
    monkeypatch.setattr(export, "game_script", lambda name: example if name == "my_game" else None)
    exported = tmp_path / "my_game.html"
    exported.write_text(export.export_html(made_up), encoding="utf-8")
    page.goto(f"{exported.as_uri()}#m=7")
    page.wait_for_selector("#viewer[data-ready='true']")
    assert page.inner_text("#board .my-pile") == "pile: 14"
    assert page.locator("#board li").all_inner_texts() == [
        f"{seat['seat']} {seat['name']}: {score}"
        for seat, score in zip(made_up["seats"], [7, -7], strict=True)
    ]
    assert page.locator("#board .chip.seat-1").count() == 1


def test_html_and_svg_leave_out_null_and_undefined(
    page: Page, base_url: str, tournament_id: int, walled: tuple[str, dict[str, Any]]
) -> None:
    """A view's missing field shows as nothing, never as the text "null", in a game's drawing."""
    match_id, _ = walled
    page.goto(f"{base_url}/tournaments/{tournament_id}/matches/{match_id}")
    page.wait_for_selector("#viewer[data-ready='true']")
    made = page.evaluate(
        """() => ["html", "svg"].map((maker) => {
          const node = window.smtourney[maker]("g", { title: null, "data-gone": undefined, "data-n": 0 },
                                               null, "a", undefined, 3, 0);
          return [node.textContent, node.getAttributeNames(), node.getAttribute("data-n")];
        })"""
    )
    assert made == [["a30", ["data-n"], "0"], ["a30", ["data-n"], "0"]]


#: Text boxes whose content is wider than the box, and the cities' titles.
LAYOUT_JS = """() => ({
  overflowing: [...document.querySelectorAll(
    "#board td, #board th, #board .badge, #board .city header strong")]
    .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent),
  names: [...document.querySelectorAll("#board .city header strong")].map((s) => s.textContent),
})"""


def test_names_fit_and_the_end_shows_the_score_part_by_part_and_the_tie_break(
    page: Page, base_url: str, tournament_id: int, walled: tuple[str, dict[str, Any]]
) -> None:
    match_id, replay = walled
    path = f"{base_url}/tournaments/{tournament_id}/matches/{match_id}"
    last = len(replay["moments"]) - 1
    for index in (last // 2, last):
        page.goto(f"{path}#m={index}")
        assert_shows(page, replay, index)
        layout = page.evaluate(LAYOUT_JS)
        assert layout["overflowing"] == []
        assert layout["names"] == [seat["name"] for seat in replay["seats"]]
        assert page.locator("#board .sm-end").count() == (index == last)
    assert_final_table(page, replay, "#board .sm-final")
    stages = page.locator("#board .sm-final tr.score-stage td").all_inner_texts()
    cities = replay["moments"][-1]["view"]["cities"]
    track = [str(cities[seat["seat"]]["vp"]) for seat in replay["seats"]]  # the rows explain the VP shown
    assert stages[: 1 + len(track)] == ["during play (the VP track)", *track]
    scores = [seat["score"] for seat in replay["seats"]]
    why = page.inner_text("#board .sm-tie-break")
    assert ("empty spaces" in why) if len(set(scores)) < len(scores) else why.startswith("No equal scores")


#: Each die as drawn: its face shapes, the words under it, and the dice legend.
DICE_JS = """() => ({
  dice: [...document.querySelectorAll("#board .dice [data-die]")].map((die) => ({
    shapes: die.querySelectorAll("[class^='f-']").length,
    face: die.querySelector(".die-face").textContent,
    mark: die.querySelector(".die-mark") ? die.querySelector(".die-mark").textContent : "",
  })),
  legend: document.querySelector("#board .dice-legend").textContent,
})"""


def test_dice_not_rolled_are_blank_and_a_kept_die_keeps_its_face_with_a_legend(
    page: Page, base_url: str, tournament_id: int, walled: tuple[str, dict[str, Any]]
) -> None:
    match_id, replay = walled
    path = f"{base_url}/tournaments/{tournament_id}/matches/{match_id}"
    views = [moment["view"] for moment in replay["moments"]]
    unrolled = next(i for i, v in enumerate(views) if v["rolls"] == 0)
    kept = next(i for i, v in enumerate(views) if v["rolls"] > 0 and any(v["kept"]))
    page.goto(f"{path}#m={unrolled}")
    assert_shows(page, replay, unrolled)
    drawn = page.evaluate(DICE_JS)
    assert drawn["dice"] == [{"shapes": 0, "face": "not rolled", "mark": ""}] * 5
    assert "not rolled yet" in drawn["legend"] and "kept" in drawn["legend"] and "turned" in drawn["legend"]
    page.goto(f"{path}#m={kept}")
    assert_shows(page, replay, kept)
    view = views[kept]
    for die, face, held in zip(page.evaluate(DICE_JS)["dice"], view["dice"], view["kept"], strict=True):
        assert die["face"] == face and die["shapes"] > 0
        assert ("kept" in die["mark"]) == held
