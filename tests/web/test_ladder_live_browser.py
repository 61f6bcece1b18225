"""A real ladder at play, watched by the public in a real browser: ``smtourney ladder serve`` plays
Bruges between bots that think 40 ms per decision (real processes reached by address); the
leaderboard changes without a reload as matches finish, and a match in progress opens as a
spectator sees it, with no hand drawn, never as its replay."""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.ladder.bot_processes import bot_process
from tests.ladder.test_api import Api, served
from tests.ladder.test_loop import activate

from .conftest import fetch, needs_chromium

pytestmark = needs_chromium

LADDER = """\
name: live-ladder
game: bruges
players: 2
seed: 5
matchmaking: {workers: 2}
time_control: {decision_ms: 5000, bank_ms: 20000}
startup_timeout_s: 30
sandbox: false
addresses: {allow: [127.0.0.0/8]}
"""

#: Games per bot as the leaderboard draws them (the games column), by bot id.
GAMES_JS = """() => Object.fromEntries([...document.querySelectorAll("#leaderboard tbody tr")]
  .map((row) => [row.dataset.key, Number(row.cells[8].textContent)]))"""


@pytest.fixture
def ladder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Api]:
    """Three slow bots of one participant, active, and the ladder serving and playing them."""
    monkeypatch.setenv("SMTOURNEY_THINK_MS", "40")
    path = tmp_path / "ladder.yaml"
    path.write_text(LADDER)
    with ExitStack() as stack:
        started = [
            stack.enter_context(bot_process("benchmarks.sleepy_bot", tmp_path / f"slow{i}.log"))
            for i in range(3)
        ]
        addresses = {f"slow{i}": address for i, (_, address) in enumerate(started)}
        activate(tmp_path / "ladder.db", "ada", addresses)
        with served(path, "--log-dir", str(tmp_path / "logs")) as api:
            yield api


def test_the_public_watches_the_ladder_play(ladder: Api, browser: Browser, page: Page) -> None:
    base = f"http://{ladder.host}:{ladder.port}"
    page.goto(f"{base}/ladder")
    page.wait_for_selector("#live[data-ready='true']")
    page.evaluate("() => { window.notReloaded = true; }")
    assert set(page.evaluate(GAMES_JS).values()) == {0}

    # A match in progress: listed, and watched live as a spectator sees it once its first moves are in.
    matches = browser.new_page()
    try:
        matches.goto(f"{base}/ladder/matches")
        row = matches.wait_for_selector("#in-progress tbody tr[data-match]", timeout=60_000)
        assert row is not None
        watch = f"/ladder/matches/{row.get_attribute('data-match')}/watch"
        assert matches.get_attribute(f"#in-progress a.watch[href='{watch}']", "href") == watch
        live = _until_live(base, watch)
        matches.goto(base + watch)
        matches.wait_for_url(f"**{live}", timeout=30_000)
        replay_path = live.removesuffix("/live")
        assert fetch(base + replay_path).status == 403, "the replay of a match in flight is served"
        assert fetch(f"{base}/api{replay_path}?seat=0").status == 403, "a seat's view is served"
        matches.wait_for_selector("#viewer[data-ready='true']", timeout=60_000)
        hidden = matches.evaluate(
            "() => [...document.querySelectorAll('#board .bg-hand')].map((h) => h.dataset.hidden)"
        )
        assert hidden and set(hidden) == {"1"}, "a hand is drawn on the spectator's page"
    finally:
        matches.close()

    # The leaderboard follows the results without a reload.
    page.wait_for_function(f"() => Object.values(({GAMES_JS})()).some((games) => games > 0)", timeout=180_000)
    assert page.evaluate("() => window.notReloaded") is True
    drawn = page.evaluate(GAMES_JS)
    board = {str(row["id"]): row["games"] for row in fetch(f"{base}/api/ladder/public/leaderboard").json()}
    assert all(board[bot] >= games for bot, games in drawn.items())
    assert sum(drawn.values()) % 2 == 0 and sum(drawn.values()) > 0  # two seats a match


def _until_live(base: str, watch: str) -> str:
    """The live page ``watch`` leads to, once the match's first moves are in the feed."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + watch, timeout=30) as response:  # follows the redirect
                path: str = urllib.parse.urlsplit(response.url).path
        except urllib.error.HTTPError as error:  # 404 until the worker's first write
            error.close()
            assert error.code == 404, error
        else:
            if path.endswith("/live"):
                return path
        time.sleep(0.2)
    raise AssertionError(f"{watch} never led to a live view")
