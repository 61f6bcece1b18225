"""A replay page carries the first view in full, then each moment's changes; the viewer rebuilds the views.

The format's operations are checked on small cases; then, for a real match of every installed game
and of the example plugin, headless Chromium rebuilds every view of the served page (the organiser's
and a seat's) and compares each with the full view the API serves, and the board the viewer draws
from the page's rebuilt views with the board it draws from the API's full replay.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from typer.testing import CliRunner

from sdk.games.registry import games
from server.cli import app as cli_app
from server.web.view_changes import changes, with_view_changes

from ..conformance.example_install import example_game_visible, install_example_game
from .conftest import fetch, needs_chromium, serve

ROOT = Path(__file__).resolve().parents[2]

BRACKET = """\
name: changes-{game}
game: {game}
players: {players}
rounds: 1
seed: 3
{params}entrants:
{entrants}
"""

#: Seats per game: Masons and Cities are drawn with three, so a seat's view hides more.
PLAYERS = {"masons": 3, "cities": 3}


def bracket(game: str, params: str = "") -> str:
    players = PLAYERS.get(game, 2)
    entrants = "\n".join(
        f"  - {{name: random-{seat}, transport: inprocess, bot: bots.random:RandomBot}}"
        for seat in range(players)
    )
    return BRACKET.format(game=game, players=players, params=params, entrants=entrants)


#: A card long enough that setting one is shorter than setting the list it is in.
CARD = {"name": "a card with a long name", "cost": 3}


def test_changes_set_append_cut_and_remove() -> None:
    before = {"board": [CARD, CARD, CARD], "hand": {"a": 1, "b": 2}, "over": False}
    after = {"board": [CARD, {**CARD, "cost": 5}, CARD, CARD], "hand": {"a": 1}, "over": True}
    assert changes(before, after) == [
        [["board", 1, "cost"], 5],
        [["board", 3], CARD],
        [["hand", "b"]],
        [["over"], True],
    ]
    assert changes([CARD, CARD, CARD], [CARD]) == [[[1]]]
    assert changes(before, before) == []


def test_a_list_whose_items_moved_is_set_whole() -> None:
    """A log keeping its latest records changes at every index: the list is shorter than the changes."""
    log = [{"turn": turn, "text": f"record {turn}"} for turn in range(10)]
    assert changes({"log": log[:8]}, {"log": log[1:9]}) == [[["log"], log[1:9]]]


def test_changes_tell_json_values_apart_that_python_calls_equal() -> None:
    assert changes({"a": 1, "b": 0, "c": 1.0}, {"a": True, "b": False, "c": 1}) == [
        [["a"], True],
        [["b"], False],
        [["c"], 1],
    ]


def test_an_object_whose_keys_change_order_is_set_whole() -> None:
    """A rebuilt view lists its keys in the full view's order, which a game's module may draw by."""
    assert changes({"a": 1, "c": 3}, {"a": 1, "b": 2, "c": 3}) == [[[], {"a": 1, "b": 2, "c": 3}]]
    assert changes({"x": {"a": 1}}, {"x": {"a": 1, "b": 2}}) == [[["x", "b"], 2]]


def test_only_the_first_moment_keeps_its_view() -> None:
    replay = {"moments": [{"index": i, "view": {"n": i, "board": "fixed"}} for i in range(3)]}
    assert with_view_changes(replay)["moments"] == [
        {"index": 0, "view": {"n": 0, "board": "fixed"}},
        {"index": 1, "changes": [[["n"], 1]]},
        {"index": 2, "changes": [[["n"], 2]]},
    ]
    assert replay["moments"][1]["view"] == {"n": 1, "board": "fixed"}, "the replay itself is left alone"


#: In the page: the moments that carry a full view, and the indexes of the rebuilt views that differ
#: from the API's (each compared as JSON text, so key order counts).
REBUILT_JS = """async (api) => {
  const moments = JSON.parse(document.getElementById("replay-data").textContent).moments;
  const full = moments.filter((moment) => "view" in moment).map((moment) => moment.index);
  window.smtourney.rebuildViews(moments);
  const served = (await (await fetch(api)).json()).moments;
  const differ = served.map((moment, i) => i)
    .filter((i) => JSON.stringify(moments[i].view) !== JSON.stringify(served[i].view));
  return { full, count: moments.length, served: served.length, differ };
}"""


def boards_at(page: Page, steps: list[int]) -> list[str]:
    """The board drawn after each of ``steps``, reached through the page's address (``#m=``)."""
    drawn = []
    for step in steps:
        page.evaluate(f"window.location.hash = 'm={step}'")
        page.wait_for_function(f"document.getElementById('viewer').dataset.step === '{step}'")
        drawn.append(page.inner_html("#board"))
    return drawn


def assert_page_rebuilds_the_served_views(page: Page, base: str, path: str) -> None:
    for query in ("", "?seat=0"):
        page.goto(base + path + query)
        page.wait_for_selector("#viewer[data-ready='true']")
        found: dict[str, Any] = page.evaluate(REBUILT_JS, "/api" + path + query)
        assert found["full"] == [0], f"{path}{query}: views other than the first are inlined in full"
        assert found["count"] == found["served"] > 1
        assert found["differ"] == [], (
            f"{path}{query}: rebuilt views differ from the API's at {found['differ']}"
        )
    # The board the viewer draws from the page's own moments, against the one it draws from the API's
    # full replay, which it fetches when the view is switched away and back.
    page.goto(base + path)
    page.wait_for_selector("#viewer[data-ready='true']")
    last = int(page.get_attribute("#viewer", "data-moments") or 0) - 1
    sample = sorted({1, last // 3, last // 2, last - 1, last})
    steps = [
        int(step)
        for step in page.eval_on_selector_all(
            "#steps li[data-moment]",
            f"(rows) => {sample}.map((i) => rows[i].dataset.step)",
        )
    ]
    from_page = boards_at(page, steps)
    page.select_option("#seat-view", "0")
    page.wait_for_function("document.getElementById('viewer').dataset.viewerSeat === '0'")
    page.select_option("#seat-view", "")
    page.wait_for_function("document.getElementById('viewer').dataset.viewerSeat === ''")
    assert boards_at(page, steps) == from_page, f"{path}: the boards drawn from rebuilt views differ"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A match of every installed game between random bots, served on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("changes")
    db = folder / "changes.db"
    for game in sorted(games()):
        path = folder / f"{game}.yaml"
        path.write_text(bracket(game))
        result = CliRunner().invoke(cli_app, ["run", str(path), "--db", str(db)])
        assert result.exit_code == 0, result.output
    with serve(db) as url:
        yield url


def first_match(base: str, tournament: dict[str, Any]) -> str:
    matches = f"/tournaments/{tournament['id']}/matches"
    return f"{matches}/{fetch(f'{base}/api{matches}').json()[0]['match_id']}"


@needs_chromium
@pytest.mark.parametrize("game", sorted(games()))
def test_each_game_replay_page_rebuilds_every_view(page: Page, site: str, game: str) -> None:
    (tournament,) = [t for t in fetch(f"{site}/api/tournaments").json() if t["name"] == f"changes-{game}"]
    assert_page_rebuilds_the_served_views(page, site, first_match(site, tournament))


@needs_chromium
def test_the_example_game_replay_page_rebuilds_every_view(
    page: Page, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "example.yaml"
    path.write_text(bracket("blind_auction", params="params: {prizes: 4}\n"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(install_example_game()), str(ROOT)]))
    with example_game_visible():
        result = CliRunner().invoke(cli_app, ["run", str(path)])
        assert result.exit_code == 0, result.output
        with serve(path.with_suffix(".db")) as url:
            (tournament,) = fetch(f"{url}/api/tournaments").json()
            assert_page_rebuilds_the_served_views(page, url, first_match(url, tournament))
