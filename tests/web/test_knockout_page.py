"""A knockout's tournament page: the tree drawn with each table's results, the champion in the
final, and the tree scrolling in its own box at phone width (headless Chromium)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page
from typer.testing import CliRunner

from server.cli import app as cli_app

from .conftest import fetch, needs_chromium, serve

KNOCKOUT = """\
name: web-knockout
players: 2
format: knockout
seed: 11
duplicate: true
entrants:
  - {name: greedy-a, transport: inprocess, bot: bots.greedy:GreedyBot}
  - {name: greedy-b, transport: inprocess, bot: bots.greedy:GreedyBot}
  - {name: random-a, transport: inprocess, bot: bots.random:RandomBot}
  - {name: random-b, transport: inprocess, bot: bots.random:RandomBot}
  - {name: random-c, transport: inprocess, bot: bots.random:RandomBot}
"""


@pytest.fixture(scope="module")
def knockout_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Five entrants played for real through ``smtourney run``, served on 127.0.0.1."""
    bracket = tmp_path_factory.mktemp("knockout") / "web-knockout.yaml"
    bracket.write_text(KNOCKOUT)
    result = CliRunner().invoke(cli_app, ["run", str(bracket)])
    assert result.exit_code == 0, result.output
    with serve(bracket.with_suffix(".db")) as url:
        (tournament,) = fetch(f"{url}/api/tournaments").json()
        yield f"{url}/tournaments/{tournament['id']}"


def test_the_page_draws_the_tree_with_the_champion_of_the_standings(knockout_url: str) -> None:
    page = fetch(knockout_url).body
    standings = fetch(knockout_url.replace("/tournaments/", "/api/tournaments/")).json()["standings"]
    assert [row["placing"] for row in standings][:2] == ["champion", "finalist"]
    levels = re.findall(r'<section class="bracket-level" data-level="(\d)">\s*<h3>([^<]+)</h3>', page)
    assert levels == [("1", "Quarter-finals"), ("2", "Semi-finals"), ("3", "Final")]
    bracket = page[page.index('id="bracket"') :]
    final = bracket[bracket.index('data-level="3"') :]
    assert re.findall(r'<li class="goes-on" data-entrant="([^"]+)"', final) == [standings[0]["name"]]
    first = bracket[: bracket.index('data-level="2"')]
    assert first.count("bracket-table bye") == 3  # seeds 1, 2 and 3 wait for the winner of 4 v 5
    # Each played table links its matches, two rotations each.
    links = re.findall(r'<a href="(/tournaments/\d+/matches/r\d-t\d{3}-s\d)">', bracket)
    root = knockout_url.split("/tournaments/", maxsplit=1)[0]
    assert len(links) == 8 and all(fetch(root + link).status == 200 for link in links)


@needs_chromium
@pytest.mark.parametrize("width", [400, 1400])
def test_the_tree_keeps_to_the_page_width(page: Page, knockout_url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(knockout_url)
    box = page.locator("#bracket")
    right, scroll, client = box.evaluate(
        "(el) => [el.getBoundingClientRect().right, el.scrollWidth, el.clientWidth]"
    )
    assert right <= width
    # At phone width the tree scrolls in its own box; at desk width it shows whole.
    assert (scroll > client) == (width == 400)
    final = page.locator('.bracket-level[data-level="3"] li.goes-on')
    final.scroll_into_view_if_needed()
    assert final.is_visible()
