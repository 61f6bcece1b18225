"""The live view in a real browser, while a real ``smtourney run`` goes: the tournament's page
advances without a reload (stored of scheduled matches, matches in flight, provisional standings,
and head-to-head, seat table and rating chart agreeing with the standings as matches are stored),
a match in flight is watched move by move as a spectator sees it (no hand drawn, every position
exactly the plugin's spectator view), then turns into the full replay; at the end the page is the
finished tournament's, without a reload: no live section, nothing provisional.

The bots are random ones that think 40 ms per decision, so the Bruges matches last seconds each.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from sdk.games.registry import get_game
from server.store.errors import StoreError
from server.store.live import LiveFeed

from .conftest import fetch, needs_chromium, serve

pytestmark = needs_chromium

ROOT = Path(__file__).resolve().parents[2]
BRACKET = """\
name: live-web
game: bruges
players: 2
rounds: 1
seed: 11
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 2
entrants:
"""
ENTRANT = (
    "  - {{name: slow-{letter}, command: python -m benchmarks.sleepy_bot, sandbox: false,"
    " env: {{SMTOURNEY_THINK_MS: '40'}}}}\n"
)
#: Three entrants two to a table, each table in both seat rotations.
MATCHES = 6


def _until(what: str, check: Any, timeout: float = 120) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """``smtourney run`` of the slow bracket, started now; stopped if the test leaves it running."""
    folder = tmp_path_factory.mktemp("live")
    (folder / "live.yaml").write_text(BRACKET + "".join(ENTRANT.format(letter=letter) for letter in "abc"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.Popen(
        [sys.executable, "-m", "server", "run", "live.yaml", "--db", "live.db"],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield run, folder / "live.db"
    finally:
        if run.poll() is None:
            run.terminate()
            run.wait(timeout=30)
        if run.stdout is not None:
            run.stdout.close()


def _live_run_started(db: Path) -> bool:
    try:
        feed = LiveFeed.open(db)
    except StoreError:
        return False  # not created yet
    try:
        tournament = feed.tournament("live-web")
        return tournament is not None and tournament.id is not None and feed.run(tournament.id) is not None
    finally:
        feed.close()


def _spectator_views(db: Path, tournament_id: int, match_id: str, players: int) -> dict[int, Any]:
    """The plugin's spectator view after each step the feed holds so far, by step number."""
    plugin = get_game("bruges")
    feed = LiveFeed.open(db)
    try:
        row = feed.in_flight_match(tournament_id, match_id)
        steps = feed.steps(tournament_id, match_id)
    finally:
        feed.close()
    assert row is not None
    state = plugin.new_state(players, row.params)
    views = {-1: plugin.spectator_view(state)}
    for seq, _, _, _, data in steps:
        state.apply(plugin.step_from_json(data))
        views[seq] = plugin.spectator_view(state)
    return views


def test_a_running_tournament_is_watched_live(
    running: tuple[subprocess.Popen[str], Path], browser: Browser, page: Page
) -> None:
    run, db = running
    _until("the run to start", lambda: _live_run_started(db))
    with serve(db) as base:
        (tournament,) = fetch(f"{base}/api/tournaments").json()
        tid = tournament["id"]

        # The tournament's page: live section, provisional standings, progress without a reload.
        page.goto(f"{base}/tournaments/{tid}")
        page.evaluate("() => { window.notReloaded = true; }")
        section = page.locator("#live")
        assert section.get_attribute("data-running") == "true"
        assert page.locator("#provisional").is_visible()
        page.wait_for_function(
            "() => document.querySelectorAll('#in-flight tbody tr').length > 0", timeout=60_000
        )
        before = int(
            page.wait_for_function("() => document.getElementById('live').dataset.done").json_value()
        )
        page.wait_for_function(
            f"() => Number(document.getElementById('live').dataset.done) > {before}", timeout=120_000
        )
        assert page.evaluate("() => window.notReloaded") is True
        progress = page.locator("#live-progress").inner_text()
        assert f"of {MATCHES} matches stored" in progress
        assert page.locator("#standings tbody tr").count() == 3
        assert page.locator("#provisional").is_visible()
        shown = _sections_agree(page, timeout=10)
        assert 0 < shown["done"] < MATCHES or shown["running"] == "false"

        # A match in flight, watched as a spectator sees it.
        watch = browser.new_page()
        try:
            match_url = _watched_in_flight(page, watch, base, tid)
            match_id = match_url.rsplit("/", 1)[1]
            first = int(watch.locator("#viewer").get_attribute("data-moments") or 0)
            assert _shows_the_newest(watch), "a live page opens on its newest moment"
            _moves_on(watch, first)
            if urlsplit(watch.url).path.endswith("/live"):
                assert _shows_the_newest(watch), "a live page follows the match"
                # In one task of the page, so the end of the match cannot open the replay between.
                back, resumed = watch.evaluate(
                    """() => {
                      const viewer = document.getElementById('viewer');
                      const follow = document.getElementById('follow');
                      document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}));
                      const back = [viewer.dataset.following, follow.hidden,
                                    Number(viewer.dataset.moment) < Number(viewer.dataset.moments) - 1];
                      follow.click();
                      const resumed = [viewer.dataset.following, follow.hidden,
                                       Number(viewer.dataset.moment) === Number(viewer.dataset.moments) - 1];
                      return [back, resumed];
                    }"""
                )
                assert back == ["false", False, True], "stepping back stops following and offers to follow"
                assert resumed == ["true", True, True], "the follow control goes back to the newest moment"
            hidden = watch.evaluate(
                "() => [...document.querySelectorAll('#board .bg-hand')].map((h) => h.dataset.hidden)"
            )
            assert hidden == ["1", "1"], "a hand is drawn on the spectator's page"
            served = fetch(f"{base}/api{match_url}/live").json()
            if served["status"] == "live":
                views = _spectator_views(db, tid, match_id, 2)
                checked = 0
                for moment in served["moments"]:
                    seq = -1 if moment["step"] is None else moment["step"]["seq"]
                    if seq in views:
                        assert moment["view"] == views[seq], (
                            f"moment {moment['index']} is not the spectator view"
                        )
                        checked += 1
                assert checked > 1
                assert all(m["step"] is None or m["step"]["action"] is None for m in served["moments"])
            # Once stored, the match opens as its full replay, on its last moment (the page followed).
            watch.wait_for_url(lambda url: urlsplit(url).path == match_url, timeout=120_000)
            watch.wait_for_selector("#viewer[data-ready='true']")
            assert "ended:" in watch.locator(".match-head .meta").inner_text()
            assert _shows_the_newest(watch), "the replay opens where the live page was: its end"
        finally:
            watch.close()

        # The end: every match stored, the page the finished tournament's, without a reload.
        page.wait_for_function(
            "() => document.getElementById('live').dataset.running === 'false'", timeout=240_000
        )
        assert page.evaluate("() => window.notReloaded") is True
        assert page.locator("#live").get_attribute("data-done") == str(MATCHES)
        assert page.locator("#finished-count").inner_text() == str(MATCHES)
        assert not page.locator("#live").is_visible(), "the In progress section stays after the run"
        assert not page.locator("#in-flight").is_visible(), "the matches in flight stay after the run"
        assert not page.locator(".badge.live").is_visible()
        assert not page.locator("#provisional").is_visible()
        assert page.locator("#in-flight tbody tr").count() == 0
        assert _sections_agree(page, timeout=0)["done"] == MATCHES
    assert run.wait(timeout=60) == 0
    feed = LiveFeed.open(db)
    try:
        assert feed.run(tid) is None and feed.in_flight(tid) == []
    finally:
        feed.close()


#: What the tournament page shows in each section, read in one task of the page.
SECTIONS = r"""() => {
  const numbers = (cells) => cells.map((cell) => Number(cell.textContent));
  const live = document.getElementById('live');
  return {
    done: Number(live.dataset.done),
    running: live.dataset.running,
    standings: [...document.querySelectorAll('#standings tbody tr')].map((row) =>
      [row.dataset.entrant, ...numbers([row.cells[5], row.cells[6]]), Number(row.cells[2].textContent)]),
    head_to_head: [...document.querySelectorAll('#head-to-head tbody tr')].map((row) => [
      row.dataset.row,
      [...row.querySelectorAll('td')].reduce((sum, cell) => sum + Number(cell.dataset.matches), 0),
      [...row.querySelectorAll('td')].reduce((sum, cell) => sum + Number(cell.dataset.ahead), 0)]),
    seat_matches: [...document.querySelectorAll('table.seat-advantage')]
      .reduce((sum, table) => sum + Number(table.dataset.matches), 0),
    seat_wins: [...document.querySelectorAll('table.seat-advantage tbody tr')]
      .reduce((sum, row) => sum + Number(row.cells[1].textContent), 0),
    ratings: [...document.querySelectorAll('#rating-plot polyline.series')].map((line) => [
      line.dataset.entrant, line.getAttribute('points').trim().split(/\s+/).length,
      Number(line.querySelector('title').textContent.split(' mu ')[1])]),
  };
}"""


def _disagreements(shown: dict[str, Any]) -> list[str]:
    """Where the head-to-head, seat table and rating chart contradict the standings on the page.

    Two seats a table and random bots that never forfeit: an entrant's matches are its shared
    matches in the head-to-head, its wins the matches it finished ahead; every stored match is in
    the seat table, and its sole winner a seat's win; the chart has a point per match played, after
    the start, and ends on the standings' mu."""
    standings = {name: (matches, wins, mu) for name, matches, wins, mu in shown["standings"]}
    found = []
    if {name: (matches, wins) for name, matches, wins in shown["head_to_head"]} != {
        name: (matches, wins) for name, (matches, wins, _) in standings.items()
    }:
        found.append(f"head-to-head {shown['head_to_head']} against standings {shown['standings']}")
    wins = sum(w for _, w, _ in standings.values())
    if shown["seat_matches"] != shown["done"] or shown["seat_wins"] != wins:
        found.append(
            f"seat table: {shown['seat_matches']} matches, {shown['seat_wins']} wins, against"
            f" {shown['done']} stored and standings {shown['standings']}"
        )
    if {name: (points, mu) for name, points, mu in shown["ratings"]} != {
        name: (matches + 1, mu) for name, (matches, _, mu) in standings.items()
    }:
        found.append(f"rating chart {shown['ratings']} against standings {shown['standings']}")
    return found


def _sections_agree(page: Page, timeout: float) -> dict[str, Any]:
    """What the page shows once every section agrees with the standings (a poll may land between a
    match being stored and the next being counted: the one after puts it right); fails saying where
    they still disagree after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        shown: dict[str, Any] = page.evaluate(SECTIONS)
        found = _disagreements(shown)
        if not found:
            return shown
        if time.monotonic() >= deadline:
            raise AssertionError("; ".join(found))
        time.sleep(0.2)


def _shows_the_newest(watch: Page) -> bool:
    """Whether the viewer shows its last moment."""
    shown = watch.evaluate(
        "() => [document.getElementById('viewer').dataset.moment,"
        " document.getElementById('viewer').dataset.moments]"
    )
    return int(shown[0]) == int(shown[1]) - 1


def _moves_on(watch: Page, first: int) -> None:
    """Waits for the watched match to show a moment past ``first`` (live, or in its replay once
    stored); if it never does, fails with what the page said of its updates."""
    try:
        watch.wait_for_function(
            f"() => Number(document.getElementById('viewer').dataset.moments) > {first}", timeout=120_000
        )
    except PlaywrightTimeoutError:
        status = watch.evaluate(
            "() => [location.href, document.getElementById('viewer').dataset.live,"
            " (document.getElementById('live-status') || {}).textContent]"
        )
        raise AssertionError(f"the watched match showed no moment past {first}: {status}") from None


def _watched_in_flight(page: Page, watch: Page, base: str, tid: int) -> str:
    """A match in flight opened on ``watch`` as its live page; its URL. A match that ends between
    being found in flight and being opened is shown as its replay (the live page redirects): that
    proves nothing about watching it live, so the next one is tried."""
    for _ in range(10):
        match_url = _refused_in_flight(page, base, tid)
        watch.goto(base + match_url + "/live")
        watch.wait_for_selector("#viewer[data-ready='true']")
        if urlsplit(watch.url).path.endswith("/live"):
            return match_url
    raise AssertionError("every match in flight ended before its live page opened")


def _refused_in_flight(page: Page, base: str, tid: int) -> str:
    """A match in flight whose full replay and seat views were refused while it was still in flight
    (a match that ends between the reads proves nothing: the next one is tried); its URL."""
    for _ in range(10):
        page.wait_for_function("() => document.querySelectorAll('#in-flight tbody tr a').length > 0")
        match_url = f"/tournaments/{tid}/matches/{page.locator('#in-flight tbody tr a').first.inner_text()}"
        replay, seat = fetch(base + match_url).status, fetch(f"{base}/api{match_url}?seat=0").status
        if fetch(f"{base}/api{match_url}/live").json()["status"] == "live":
            assert replay == 404, "the full replay of a match in flight is served"
            assert seat == 404, "a seat's view of a match in flight is served"
            return match_url
        time.sleep(0.5)
    raise AssertionError("every match in flight ended while it was being checked")
