"""The exported replay: one file, nothing fetched, and the replay inside it intact."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from server.web.export import export_html

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
    assert embedded(page) == replay


def test_text_in_a_replay_cannot_break_out_of_the_page(replay: dict[str, Any]) -> None:
    hostile = copy.deepcopy(replay)
    hostile["seats"][0]["name"] = "</script><script>alert(1)</script>"
    page = export_html(hostile)
    assert embedded(page) == hostile
    assert "<script>alert(1)" not in page
