"""An OpenSpiel replay in the web viewer: the family's one drawing module is served for every
adapted game and draws each seat's view as OpenSpiel shows it (headless Chromium, a real server)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page
from typer.testing import CliRunner

from server.cli import app as cli_app

from ..server.conftest import ROOT
from .conftest import fetch, needs_chromium, serve

MODULE = ROOT / "sdk" / "games" / "openspiel" / "web" / "openspiel.js"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("openspiel-web") / "kuhn.db"
    result = CliRunner().invoke(
        cli_app, ["run", str(ROOT / "tournaments" / "openspiel-kuhn.yaml"), "--db", str(db)]
    )
    assert result.exit_code == 0, result.output
    with serve(db) as url:
        yield url


def first_match(site: str) -> str:
    (tournament,) = fetch(f"{site}/api/tournaments").json()
    base = f"/tournaments/{tournament['id']}/matches"
    return f"{base}/{fetch(f'{site}/api{base}').json()[0]['match_id']}"


def test_the_family_module_is_served_for_every_adapted_game(site: str) -> None:
    for game in ("openspiel:kuhn_poker", "openspiel:tic_tac_toe"):
        reply = fetch(f"{site}/games/{game}.js")
        assert reply.status == 200 and reply.content_type.startswith("text/javascript"), game
        assert reply.body == MODULE.read_text(encoding="utf-8")
    assert 'registerGame("openspiel:"' in MODULE.read_text(encoding="utf-8")
    missing = fetch(f"{site}/games/openspiel:no_such_game.js")
    assert missing.status == 404 and "unknown OpenSpiel game &#39;no_such_game&#39;" in missing.body


@needs_chromium
@pytest.mark.parametrize("seat", [None, 0, 1])
def test_each_view_is_drawn_as_openspiel_shows_it(page: Page, site: str, seat: int | None) -> None:
    path = first_match(site)
    query = "" if seat is None else f"?seat={seat}"
    replay: dict[str, Any] = fetch(f"{site}/api{path}{query}").json()
    page.goto(f"{site}{path}{query}")
    page.wait_for_selector("#viewer[data-ready='true']")
    for index in (0, len(replay["moments"]) - 1):
        page.goto(f"{site}{path}{query}#m={index}")
        page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{index}'")
        view = replay["moments"][index]["view"]
        shown = view["text"] or "(nothing shown to this seat yet)"  # before the deal
        assert page.inner_text(".openspiel pre.position") == shown, (seat, index)
        assert not page.query_selector("pre.raw-view"), "drawn as data: the module was not used"
    returns = page.eval_on_selector_all(
        ".openspiel table.returns td.number", "(cells) => cells.map((c) => Number(c.textContent))"
    )
    assert returns == view["returns"]
    best = page.eval_on_selector_all(
        ".openspiel table.returns tr", "(rows) => rows.filter((r) => r.querySelector('.winner')).length"
    )
    assert best == view["returns"].count(max(view["returns"]))


@needs_chromium
def test_an_openspiel_replay_fits_a_phone(page: Page, site: str) -> None:
    page.set_viewport_size({"width": 400, "height": 900})
    page.goto(f"{site}{first_match(site)}#m=end")
    page.wait_for_selector(".openspiel pre.position")
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
