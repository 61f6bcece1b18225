"""The live routes over a real HTTP server on a database whose live feed holds a Bruges match in
flight (steps of a real random game): moments are the plugin's spectator views, taken from any
point; a match neither in flight nor stored is a 404; once stored, the live page leads to the replay;
the time left is estimated from the run's own pace."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from sdk.games.registry import get_game
from server.store.live import LiveFeed
from server.store.models import LiveRun
from server.store.repository import Placement
from server.web.live import estimate_seconds

from ..store.test_postgres import SEED, record
from .conftest import fetch, serve

STEPS = 120


def _random_steps(players: int) -> tuple[list[list[Any]], list[dict[str, Any]]]:
    """A random Bruges game's first steps as the feed keeps them, and the spectator view after each."""
    plugin = get_game("bruges")
    rng = random.Random(4)
    state = plugin.new_state(players, {})
    rows, views = [], [plugin.spectator_view(state)]
    for seq in range(STEPS):
        if state.is_chance_node():
            step, seat, kind = state.sample_chance(rng), None, "chance"
        else:
            seat, kind = state.current_player, plugin.decision_kind(state)
            step = plugin.random_action(plugin.observe(state, seat), rng)
        rows.append([seq, kind, seat, "chance" if seat is None else "bot", plugin.step_to_json(step)])
        state.apply(step)
        views.append(plugin.spectator_view(state))
    return rows, views


@pytest.fixture
def live_db(tmp_path: Path) -> tuple[Path, int, list[dict[str, Any]]]:
    db = tmp_path / "live.db"
    feed = LiveFeed.open(db, create=True)
    try:
        tournament = feed.create_tournament(
            name="t", game="bruges", fingerprint="f", bracket={}, seed=SEED, entrants=[("a", {}), ("b", {})]
        )
        assert tournament.id is not None
        feed.begin_run(tournament.id, 4, 0)
        live = feed.start_match(
            tournament.id, "r1-t000-s0", params={}, seats=("a", "b"), started_at=datetime.now(UTC)
        )
        rows, views = _random_steps(2)
        feed.append_steps(live, 0, rows[:50])
        feed.append_steps(live, 50, rows[50:])
        return db, tournament.id, views
    finally:
        feed.close()


def test_a_match_in_flight_is_served_as_a_spectator_sees_it(
    live_db: tuple[Path, int, list[dict[str, Any]]],
) -> None:
    db, tid, views = live_db
    with serve(db) as base:
        progress = fetch(f"{base}/api/tournaments/{tid}/live").json()
        assert (
            progress["running"]
            and progress["provisional"]
            and (progress["done"], progress["total"]) == (0, 4)
        )
        assert [m["match_id"] for m in progress["in_flight"]] == ["r1-t000-s0"]
        assert progress["in_flight"][0]["steps"] == STEPS and progress["estimate_s"] is None

        url = f"{base}/api/tournaments/{tid}/matches/r1-t000-s0/live"
        served = fetch(url).json()
        assert (
            served["status"] == "live" and served["steps"] == STEPS and served["replay"]["spectator"] is True
        )
        moments = served["moments"]
        assert moments[0]["step"] is None and moments[0]["view"] == views[0]
        for moment in moments[1:]:
            assert moment["view"] == views[moment["step"]["seq"] + 1]
            assert moment["step"]["action"] is None and moment["step"]["reply"] is None
        assert [m["index"] for m in moments] == list(range(len(moments)))
        assert fetch(f"{url}?after=5").json()["moments"] == moments[5:]
        page = fetch(f"{base}/tournaments/{tid}/matches/r1-t000-s0/live")
        assert page.status == 200 and "As a spectator sees it" in page.body

        assert fetch(f"{base}/tournaments/{tid}/matches/r1-t000-s0").status == 404  # no replay yet
        missing = fetch(f"{base}/api/tournaments/{tid}/matches/r9-t000-s0/live")
        assert missing.status == 404 and "neither being played nor stored" in missing.json()["error"]
        assert fetch(f"{base}/tournaments/{tid}/matches/r9-t000-s0/live").status == 404

        feed = LiveFeed.open(db)
        try:
            assert feed.save_match(tid, Placement(0, 1, 0, 0), record("r1-t000-s0"), [0, 1])
        finally:
            feed.close()
        assert fetch(url).json() == {"status": "done", "replay_url": f"/tournaments/{tid}/matches/r1-t000-s0"}
        progress = fetch(f"{base}/api/tournaments/{tid}/live").json()
        assert progress["in_flight"] == [] and progress["done"] == 1


def test_the_time_left_follows_the_pace_of_this_run() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    run = LiveRun(tournament_id=1, total=10, stored_at_start=2, started_at=start, updated_at=start)
    assert estimate_seconds(run, 2, start + timedelta(seconds=30)) is None  # none stored by this run yet
    assert estimate_seconds(run, 6, start + timedelta(seconds=40)) == pytest.approx(40.0)  # 4 in 40 s, 4 left
    assert estimate_seconds(run, 10, start + timedelta(seconds=80)) == 0


def _listed(base: str, tid: int) -> tuple[str, str, str]:
    """The front page's row of tournament ``tid``: its status attribute, status and winner text."""
    row = re.search(
        rf'<tr data-tournament="{tid}" data-status="([^"]+)">(.*?)</tr>', fetch(base + "/").body, re.S
    )
    assert row, "the tournament is not listed"
    cells = [
        re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row.group(2))
    ]
    return row.group(1), cells[2], cells[3]


def test_the_tournament_list_says_what_is_in_progress_and_who_won(
    live_db: tuple[Path, int, list[dict[str, Any]]],
) -> None:
    db, tid, _ = live_db
    with serve(db) as base:
        assert _listed(base, tid) == ("in progress", "in progress", "to be decided")
        feed = LiveFeed.open(db)
        try:
            assert feed.save_match(tid, Placement(0, 1, 0, 0), record("r1-t000-s0"), [0, 1])
            assert _listed(base, tid) == ("in progress", "in progress", "to be decided")
            feed.end_run(tid)
        finally:
            feed.close()
        standings = fetch(f"{base}/api/tournaments/{tid}").json()["standings"]
        assert standings[0]["matches"] == 1
        assert _listed(base, tid) == ("finished", "finished", standings[0]["name"])
