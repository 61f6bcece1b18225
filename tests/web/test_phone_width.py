"""Every kind of page at phone width (400 px) and at desk width (1400 px), in headless Chromium.

At 400 px the page never scrolls sideways (wide tables, the knockout tree, charts and boards scroll
in their own boxes), the header bar spans the window, a name keeps a readable width rather than a
letter a line, the seat table's last columns can be scrolled to, and a board's smallest text stays
legible. At 1400 px nothing scrolls sideways and the replay keeps its board beside the decisions.

The pages are those of real tournaments of every installed game and a knockout, played with
``smtourney run`` into one database; a match in flight written into that database's live feed; and
a ladder filled through its own store, each served on 127.0.0.1.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from typer.testing import CliRunner

from sdk.games.registry import games
from server.cli import app as cli_app
from server.store.live import LiveFeed

from ..conformance.example_install import example_game_visible, install_example_game
from ..store.test_postgres import SEED
from .conftest import fetch, needs_chromium, serve
from .ladder_fill import LadderFill
from .test_live_api import _random_steps

pytestmark = needs_chromium

ROOT = Path(__file__).resolve().parents[2]
PHONE, DESK = 400, 1400
#: Smallest legible height of a board's text, in CSS pixels, at the board's own zoom.
LEGIBLE_PX = 9
LONG = "a-bot-with-a-name-long-enough-to-wrap-on-a-phone"

BRACKETS = {
    "saint_malo": f"""\
name: phone-saint-malo-with-a-name-that-must-wrap-on-a-narrow-screen
game: saint_malo
players: 2
rounds: 1
seed: 5
time_control: {{decision_ms: 5000, bank_ms: 20000}}
workers: 2
entrants:
  - {{name: {LONG}, command: python -m bots.greedy}}
  - {{name: faulty, command: python -m tests.bots.faulty_bot --fault illegal --at 3}}
""",
    "masons": """\
name: phone-masons
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
""",
    "bruges": """\
name: phone-bruges
game: bruges
players: 2
rounds: 1
seed: 5
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 2
entrants:
  - {name: heuristic, command: python -m bots.bruges}
  - {name: random, command: python -m bots.random}
""",
    "cities": """\
name: phone-cities
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
""",
    "knockout": """\
name: phone-knockout
players: 2
format: knockout
seed: 11
entrants:
  - {name: greedy-a, transport: inprocess, bot: bots.greedy:GreedyBot}
  - {name: greedy-b, transport: inprocess, bot: bots.greedy:GreedyBot}
  - {name: random-a, transport: inprocess, bot: bots.random:RandomBot}
  - {name: random-b, transport: inprocess, bot: bots.random:RandomBot}
  - {name: random-c, transport: inprocess, bot: bots.random:RandomBot}
""",
}

#: The example plugin (tests/example_game), installed only for the test that plays it.
EXAMPLE = """\
name: phone-example
game: blind_auction
players: 2
rounds: 1
seed: 5
params: {prizes: 4}
entrants:
  - {name: random-a, transport: inprocess, bot: bots.random:RandomBot}
  - {name: random-b, transport: inprocess, bot: bots.random:RandomBot}
"""

#: How the page sits in its window: its own width, the header bar's, and what sticks out of it.
LAYOUT_JS = r"""() => {
  const width = window.innerWidth;
  const boxes = "table.list, .bracket, .plot, .board, .ms-map";
  // A cell narrower than 5 em whose text takes more lines than it has words: a name broken a
  // letter or two a line.
  const squeezed = (cell) => {
    const words = cell.textContent.trim().split(/\s+/).filter(Boolean).length;
    const em = parseFloat(getComputedStyle(cell).fontSize);
    const tops = [];
    const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let text = texts.nextNode(); text; text = texts.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(text);
      tops.push(...[...range.getClientRects()].map((r) => r.top));
    }
    tops.sort((a, b) => a - b);
    const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1] > 0.6 * em).length;
    return words > 0 && lines > words && cell.getBoundingClientRect().width < 5 * em;
  };
  return {
    page: document.documentElement.scrollWidth,
    header: document.querySelector("header.site").getBoundingClientRect().width,
    outside: [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && !e.closest(boxes))
      .map((e) => e.outerHTML.slice(0, 80)),
    squeezed: [...document.querySelectorAll("td, th")].filter(squeezed)
      .map((c) => c.textContent.trim().slice(0, 40)),
    scrolling: [...document.querySelectorAll(boxes)]
      .filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.id || b.className),
  };
}"""

#: The smallest height at which the board's text is drawn, or null when it draws no SVG text.
SMALLEST_TEXT_JS = """() => {
  const heights = [...document.querySelectorAll("#board svg text")]
    .map((t) => t.getBoundingClientRect().height).filter((h) => h > 0);
  return heights.length ? Math.min(...heights) : null;
}"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database with a tournament of every installed game, a knockout, and a Bruges match in
    flight in the live feed of a tournament still running."""
    folder = tmp_path_factory.mktemp("phone")
    db = folder / "phone.db"
    assert set(games()) <= set(BRACKETS), "a game with no bracket here"
    for name, text in BRACKETS.items():
        bracket = folder / f"{name}.yaml"
        bracket.write_text(text)
        result = CliRunner().invoke(cli_app, ["run", str(bracket), "--db", str(db)])
        assert result.exit_code == 0, result.output
    feed = LiveFeed.open(db)
    try:
        tournament = feed.create_tournament(
            name="phone-live",
            game="bruges",
            fingerprint="f",
            bracket={},
            seed=SEED,
            entrants=[(LONG, {}), ("b", {})],
        )
        assert tournament.id is not None
        feed.begin_run(tournament.id, 2, 0)
        live = feed.start_match(
            tournament.id, "r1-t000-s0", params={}, seats=(LONG, "b"), started_at=datetime.now(UTC)
        )
        rows, _ = _random_steps(2)
        feed.append_steps(live, 0, rows)
    finally:
        feed.close()
    return db


@pytest.fixture(scope="module")
def site(played: Path) -> Iterator[str]:
    with serve(played) as url:
        yield url


@pytest.fixture(scope="module")
def tournaments(site: str) -> dict[str, dict[str, Any]]:
    """The tournaments by name."""
    return {t["name"]: t for t in fetch(f"{site}/api/tournaments").json()}


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory, tournament_db: Path) -> Iterator[tuple[str, int]]:
    """A ladder with a long-named bot among four, two matches played and one decided; the base URL
    and that bot's id."""
    db = tmp_path_factory.mktemp("phone-ladder") / "ladder.db"
    fill = LadderFill(db, tournament_db)
    try:
        ada, grace = fill.participant("ada"), fill.participant("grace-" + "q" * 40)
        for owner, name in ((ada, "alpha"), (ada, "beta"), (grace, "gamma")):
            fill.bot(owner, name)
        long_bot = fill.bot(grace, LONG + "-" + "z" * 40)
        fill.open_tournament()
        fill.play(0)
        fill.play(1)
        fill.decide()
        with serve(db) as url:
            yield url, long_bot
    finally:
        fill.close()


def first_match(site: str, tournament: dict[str, Any]) -> str:
    base = f"/tournaments/{tournament['id']}/matches"
    return f"{base}/{fetch(f'{site}/api{base}').json()[0]['match_id']}"


def assert_fits(page: Page, width: int, path: str) -> dict[str, Any]:
    """The page at ``path`` keeps to the window's width; its layout, for further checks."""
    layout: dict[str, Any] = page.evaluate(LAYOUT_JS)
    assert layout["page"] <= width, (path, layout)
    assert layout["header"] == width, (path, layout)
    assert layout["outside"] == [], (path, layout)
    assert layout["squeezed"] == [], (path, layout)
    if width == DESK:
        assert layout["scrolling"] == [], (path, layout)
    return layout


def open_at(page: Page, width: int, url: str) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)


@pytest.mark.parametrize("width", [PHONE, DESK])
def test_the_tournament_list_a_tournament_and_its_matches_fit(
    page: Page, site: str, tournaments: dict[str, dict[str, Any]], width: int
) -> None:
    (round_robin,) = [t for name, t in tournaments.items() if name.startswith("phone-saint-malo-")]
    paths = [
        "/",
        f"/tournaments/{round_robin['id']}",
        f"/tournaments/{tournaments['phone-knockout']['id']}",
        f"/tournaments/{round_robin['id']}/matches",
    ]
    for path in paths:
        open_at(page, width, site + path)
        layout = assert_fits(page, width, path)
        if width == PHONE and path != "/":
            assert layout["scrolling"], f"{path}: nothing wide enough to scroll in its own box at {PHONE} px"
    # A table that scrolls in its own box still disappears when a script hides it.
    hidden = page.eval_on_selector(
        "table.list", "(table) => { table.hidden = true; return table.getClientRects().length; }"
    )
    assert hidden == 0, "a hidden table is still drawn"


@pytest.mark.parametrize("width", [PHONE, DESK])
@pytest.mark.parametrize("game", sorted(games()))
def test_a_replay_of_each_game_fits_and_its_board_stays_legible(
    page: Page, site: str, tournaments: dict[str, dict[str, Any]], game: str, width: int
) -> None:
    (tournament,) = [
        t for name, t in tournaments.items() if name.startswith(f"phone-{game.replace('_', '-')}")
    ]
    path = first_match(site, tournament)
    open_at(page, width, site + path)
    page.wait_for_selector("#viewer[data-ready='true']")
    for moment in ("first", "last"):
        if moment == "last":
            page.keyboard.press("End")
            last = int(page.get_attribute("#viewer", "data-moments") or 0) - 1
            page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{last}'")
        assert_fits(page, width, f"{path} at the {moment} moment")
        smallest = page.evaluate(SMALLEST_TEXT_JS)
        assert smallest is None or smallest >= LEGIBLE_PX, (path, moment, smallest)
    if width == DESK:
        columns = page.eval_on_selector(".stage", "(e) => getComputedStyle(e).gridTemplateColumns")
        assert len(columns.split()) == 2, "the decisions no longer sit beside the board"
    else:
        assert_last_column_reachable(page, "table.seats")


def test_a_replay_of_the_example_game_fits(
    page: Page, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game installed as a user installs a plugin, drawn by its own module, fits as the others do."""
    bracket = tmp_path / "example.yaml"
    bracket.write_text(EXAMPLE)
    # The run's worker processes find the plugin as a user's would: on their path.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(install_example_game()), str(ROOT)]))
    with example_game_visible():
        result = CliRunner().invoke(cli_app, ["run", str(bracket)])
        assert result.exit_code == 0, result.output
        with serve(bracket.with_suffix(".db")) as url:
            (tournament,) = fetch(f"{url}/api/tournaments").json()
            path = first_match(url, tournament)
            for width in (PHONE, DESK):
                open_at(page, width, url + path)
                page.wait_for_selector("#viewer[data-ready='true']")
                assert page.locator("#board table").count() == 1, "the game's own module did not draw"
                assert_fits(page, width, path)


def assert_last_column_reachable(page: Page, table: str) -> None:
    """The table's last heading comes into its box when the box is scrolled to its end."""
    inside = page.eval_on_selector(
        table,
        """(box) => {
          box.scrollLeft = box.scrollWidth;
          const last = box.querySelector("thead th:last-child").getBoundingClientRect();
          const frame = box.getBoundingClientRect();
          const scrolls = box.scrollWidth > box.clientWidth;
          return scrolls && last.left >= frame.left && last.right <= frame.right + 1;
        }""",
    )
    assert inside, f"the last column of {table} cannot be scrolled into view"


@pytest.mark.parametrize("width", [PHONE, DESK])
def test_a_running_tournament_and_its_live_match_fit(
    page: Page, site: str, tournaments: dict[str, dict[str, Any]], width: int
) -> None:
    tid = tournaments["phone-live"]["id"]
    open_at(page, width, f"{site}/tournaments/{tid}")
    page.wait_for_selector("#in-flight tbody tr a")
    assert_fits(page, width, "the running tournament")
    open_at(page, width, f"{site}/tournaments/{tid}/matches/r1-t000-s0/live")
    page.wait_for_selector("#viewer[data-ready='true']")
    assert_fits(page, width, "the live match")
    smallest = page.evaluate(SMALLEST_TEXT_JS)
    assert smallest is not None and smallest >= LEGIBLE_PX, smallest


@pytest.mark.parametrize("width", [PHONE, DESK])
def test_the_ladder_pages_fit(page: Page, ladder: tuple[str, int], width: int) -> None:
    url, long_bot = ladder
    for path in ("/ladder", "/ladder/bots", f"/ladder/bots/{long_bot}", "/ladder/matches"):
        open_at(page, width, url + path)
        page.wait_for_selector("#live[data-ready='true']")
        assert_fits(page, width, path)
