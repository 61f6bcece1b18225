"""The exported replay: one file, nothing fetched, and the replay inside it intact."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sdk.games.registry import get_game
from server.cli import app as cli_app
from server.web.export import export_html
from server.web.templating import inline_script
from server.web.view_changes import with_view_changes

from .conftest import fetch


@pytest.fixture(scope="module")
def replay(base_url: str, tournament_id: int, match_ids: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches/{match_ids[0]}").json()
    return data


def embedded(page: str) -> Any:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.DOTALL)
    assert found
    return json.loads(found.group(1))


def test_export_is_one_self_contained_file(replay: dict[str, Any]) -> None:
    page = export_html(replay)
    assert page.startswith("<!doctype html>")
    assert not re.search(r"""<link|<script[^>]*\bsrc=|\burl\(|https?://(?!www\.w3\.org/2000/svg)""", page)
    assert "function show(index)" in page and ".city-grid" in page
    assert embedded(page) == with_view_changes(replay)


def test_text_in_a_replay_cannot_break_out_of_the_page(replay: dict[str, Any]) -> None:
    hostile = copy.deepcopy(replay)
    hostile["seats"][0]["name"] = "</script><script>alert(1)</script>"
    page = export_html(hostile)
    assert embedded(page) == with_view_changes(hostile)
    assert "<script>alert(1)" not in page


def test_export_inlines_the_module_of_the_replays_game(replay: dict[str, Any]) -> None:
    page = export_html(replay)
    module = get_game(replay["match"]["game"]).web_script.read_text(encoding="utf-8")
    assert module in page  # whole, so the file draws as the served viewer does
    assert page.index("function show(index)") < page.index(module)  # after the viewer it registers with


def test_an_exported_seat_view_cannot_switch_seats(
    base_url: str, tournament_id: int, match_ids: list[str]
) -> None:
    seat_replay = fetch(f"{base_url}/api/tournaments/{tournament_id}/matches/{match_ids[0]}?seat=1").json()
    page = export_html(seat_replay)
    assert embedded(page)["viewer_seat"] == 1
    found = re.search(r'<select id="seat-view"([^>]*)>(.*?)</select>', page, re.DOTALL)
    assert found and " disabled" in found.group(1) and '<option value="1" selected>' in found.group(2)
    assert "data-replay-url" not in page


def test_a_script_in_a_module_cannot_end_its_element_early() -> None:
    assert inline_script('x = "</script><b>"; y = "</SCRIPT>"') == 'x = "<\\/script><b>"; y = "<\\/SCRIPT>"'


def test_replay_html_exports_the_view_of_the_seat_asked_for(
    tournament_db: Path, match_ids: list[str], tmp_path: Path
) -> None:
    exported = tmp_path / "seat1.html"
    result = CliRunner().invoke(
        cli_app, ["replay", match_ids[0], "--db", str(tournament_db), "--seat", "1", "--html", str(exported)]
    )
    assert result.exit_code == 0, result.output
    page = exported.read_text(encoding="utf-8")
    replay = embedded(page)
    assert replay["viewer_seat"] == 1
    assert get_game(replay["match"]["game"]).web_script.read_text(encoding="utf-8") in page
    assert '<option value="1" selected>' in page and "data-replay-url" not in page
