"""The ladder at play, on real servers on 127.0.0.1: a real ``smtourney ladder serve`` process, real
bot processes reached by address, a real SQLite file. Bots submitted over the API are validated and
play; every stored match is counted once, and the ratings shown are those a replay of the database
gives; a SIGKILL of the service loses and duplicates nothing; bots that crash or hang are suspended
while the others play on."""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, closing
from pathlib import Path
from typing import Any

import pytest

from bots.random import RandomBot
from sdk.games.decisions import DecisionContext
from sdk.serve import BotServer, serve
from server.ladder.config import load_ladder
from server.ladder.standings import recompute
from server.ladder.store import LadderStore
from server.store.repository import Store

from .bot_processes import bot_process
from .conftest import cli
from .test_api import LOOPBACK, served
from .test_organiser import add, rows

FAST = "time_control: {decision_ms: 200, bank_ms: 1000}\nstartup_timeout_s: 10\nsandbox: false\n" + LOOPBACK


def wait_for(condition: Any, what: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout_s:.0f} s: {what}"
        time.sleep(0.2)


def number(db: Path, sql: str) -> int:
    """The one integer ``sql`` selects."""
    (value,) = rows(db, sql)[0]
    assert isinstance(value, int), value
    return value


def done(db: Path) -> int:
    return number(db, "SELECT COUNT(*) FROM ladder_match WHERE status = 'done'")


def assert_counted_once(db: Path, players: int) -> None:
    """Every done ladder match points at its own stored match; every stored match is a done ladder
    match; games add up to the seats played; the stored ratings are those of a replay."""
    matches = rows(db, "SELECT COUNT(*), COUNT(DISTINCT match_id) FROM match")[0]
    linked = rows(
        db,
        "SELECT COUNT(*), COUNT(DISTINCT lm.match_pk) FROM ladder_match lm "
        "JOIN match m ON m.id = lm.match_pk "
        "WHERE lm.status = 'done' AND m.match_id = 'ladder-' || lm.id AND m.seed = lm.seed",
    )[0]
    assert matches[0] == matches[1] == linked[0] == linked[1] == done(db) > 0
    assert rows(db, "SELECT SUM(games) FROM ladder_bot")[0][0] == players * done(db)
    code, output = cli("ladder", "recompute", str(db.with_suffix(".yaml")), "--db", str(db))
    assert code == 0, output
    assert "agree with the replay" in output


def activate(db: Path, participant: str, bots: dict[str, str]) -> None:
    """Bots reached at the given addresses, made active as if validated."""
    token = add(db, participant)
    assert token
    with closing(Store.open(db)) as store:
        ladder = LadderStore(store)
        owner = next(p for p in ladder.participants() if p.name == participant)
        assert owner.id is not None
        for name, address in bots.items():
            row = ladder.add_bot(owner.id, name, {"address": address}, mu=25, sigma=25 / 3)
            ladder.finish_validation(row.id, passed=True, reason=None, max_active=10)


@pytest.fixture
def random_bots(tmp_path: Path) -> Iterator[list[str]]:
    """Three random bots, each a process of its own, by address."""
    with ExitStack() as stack:
        yield [
            stack.enter_context(bot_process("bots.random", tmp_path / f"random{i}.log"))[1] for i in range(3)
        ]


def test_submitted_bots_are_validated_and_play_and_the_leaderboard_is_the_database_s(
    tmp_path: Path, random_bots: list[str]
) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: play\ngame: saint_malo\nplayers: 2\nmatchmaking: {workers: 2}\n" + FAST)
    tokens = [add(tmp_path / "ladder.db", name) for name in ("ada", "bob", "cy")]
    with served(path, "--log-dir", str(tmp_path / "logs")) as api:
        for token, address in zip(tokens, random_bots, strict=True):
            reply = api.request("POST", "/bots", token, {"name": "r", "address": address})
            assert reply.status == 201, reply
        wait_for(lambda: done(api.db) >= 12, "12 matches played")
        board = api.request("GET", "/leaderboard").body
    assert {row["participant"] for row in board} == {"ada", "bob", "cy"}
    for row in board:
        assert row["status"] == "active" and row["games"] > 0 and row["last_game_at"] is not None
        low, high = row["interval"]
        assert low == pytest.approx(row["mu"] - 1.959964 * row["sigma"])
        assert high == pytest.approx(row["mu"] + 1.959964 * row["sigma"])
    assert_counted_once(api.db, 2)
    seatings = rows(api.db, "SELECT ladder_match_id, COUNT(DISTINCT bot_id) FROM ladder_seat GROUP BY 1")
    assert all(count == 2 for _, count in seatings)  # a bot never meets itself
    first_seats = rows(api.db, "SELECT DISTINCT bot_id FROM ladder_seat WHERE seat = 0")
    assert len(first_seats) == 3  # seats rotate
    with closing(Store.open(api.db)) as store:
        assert recompute(LadderStore(store), load_ladder(path).initial_rating).problems == []
    with closing(sqlite3.connect(api.db)) as connection:
        connection.execute("UPDATE ladder_bot SET mu = mu + 0.5 WHERE id = (SELECT MIN(id) FROM ladder_bot)")
        connection.commit()
    code, output = cli("ladder", "recompute", str(path))
    assert code == 1
    assert "ada/r: stored mu" in output


def test_a_sigkilled_service_resumes_its_unfinished_matches_with_their_seeds(
    tmp_path: Path, random_bots: list[str]
) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: resume\ngame: saint_malo\nplayers: 2\nmatchmaking: {workers: 2}\n" + FAST)
    activate(tmp_path / "ladder.db", "ada", {f"r{i}": address for i, address in enumerate(random_bots)})
    options = ("--log-dir", str(tmp_path / "logs"))
    with served(path, *options) as api:
        wait_for(lambda: done(api.db) >= 4, "4 matches played")
        wait_for(
            lambda: number(api.db, "SELECT COUNT(*) FROM ladder_match WHERE status = 'playing'") > 0,
            "a match in flight",
        )
        assert api.process is not None
        os.kill(api.process.pid, signal.SIGKILL)
        api.process.wait()
    unfinished = rows(api.db, "SELECT id, seed FROM ladder_match WHERE status != 'done' ORDER BY id")
    before = done(api.db)
    assert unfinished
    with served(path, *options) as api:
        wait_for(
            lambda: done(api.db) >= before + len(unfinished) + 4,
            "the unfinished matches and 4 more played",
        )
    for ladder_match_id, seed in unfinished:
        assert rows(
            api.db,
            f"SELECT lm.status, m.seed FROM ladder_match lm JOIN match m ON m.id = lm.match_pk "
            f"WHERE lm.id = {ladder_match_id}",
        ) == [("done", seed)]
    assert_counted_once(api.db, 2)


class HangingBot(RandomBot):
    """Plays at random until told to hang, then never answers a decision."""

    def __init__(self) -> None:
        self.hang = threading.Event()
        self.released = threading.Event()

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        if self.hang.is_set():
            self.released.wait(60)
        return super().decide(kind, observation, context)


@pytest.fixture
def hanging() -> Iterator[tuple[HangingBot, BotServer]]:
    bot = HangingBot()
    running = serve(bot, 0, max_workers=16)
    try:
        yield bot, running
    finally:
        bot.released.set()
        running.stop(grace=0)


def test_bots_that_crash_or_hang_are_suspended_after_three_forfeits_and_the_others_play_on(
    tmp_path: Path, random_bots: list[str], hanging: tuple[HangingBot, BotServer]
) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: faults\ngame: saint_malo\nplayers: 2\n" + FAST.replace("1000", "300"))
    db = tmp_path / "ladder.db"
    bot, server = hanging
    with bot_process("bots.random", tmp_path / "crashing.log") as (crashing, crashing_address):
        activate(db, "ada", {"good0": random_bots[0], "good1": random_bots[1], "crashing": crashing_address})
        activate(db, "bob", {"hanging": f"127.0.0.1:{server.port}"})
        with served(path, "--log-dir", str(tmp_path / "logs")) as api:
            crashing.kill()
            bot.hang.set()
            wait_for(
                lambda: number(db, "SELECT COUNT(*) FROM ladder_bot WHERE status = 'suspended'") == 2,
                "both faulty bots suspended",
                timeout_s=240,
            )
            after = done(db)
            wait_for(lambda: done(db) >= after + 4, "4 more matches played")
            assert api.request("GET", "/leaderboard").status == 200
    suspended = rows(db, "SELECT name, reason FROM ladder_bot WHERE status = 'suspended' ORDER BY name")
    assert [name for name, _ in suspended] == ["crashing", "hanging"]
    assert all(
        str(reason).startswith("forfeited 3 of its last 5 matches, the last: ") for _, reason in suspended
    )
    for name in ("crashing", "hanging"):
        assert number(db, f"SELECT games FROM ladder_bot WHERE name = '{name}'") >= 3
        (last_decided,) = rows(
            db,
            "SELECT MAX(ls.ladder_match_id) FROM ladder_seat ls JOIN ladder_bot b ON b.id = ls.bot_id "
            f"WHERE b.name = '{name}'",
        )[0]
        # its last table was decided before the forfeit that suspended it was stored, and the 4 or
        # more tables decided since are without it
        assert rows(db, f"SELECT status FROM ladder_match WHERE id = {last_decided}") == [("done",)]
        assert number(db, f"SELECT COUNT(*) FROM ladder_match WHERE id > {last_decided}") >= 4
    assert rows(db, "SELECT COUNT(*) FROM ladder_match WHERE status = 'error'") == [(0,)]
    assert_counted_once(db, 2)


@pytest.mark.slow
def test_sixty_matches_rank_search_above_greedy_above_random(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: strength\ngame: saint_malo\nplayers: 2\nmatchmaking: {workers: 2}\n" + LOOPBACK)
    with ExitStack() as stack:
        submitted = {}
        for module in ("bots.random", "bots.greedy", "bots.search"):
            _, address = stack.enter_context(bot_process(module, tmp_path / f"{module}.log"))
            name = module.removeprefix("bots.")
            submitted[name] = (add(tmp_path / "ladder.db", name), address)
        with served(path, "--log-dir", str(tmp_path / "logs")) as api:
            for name, (token, address) in submitted.items():
                assert api.request("POST", "/bots", token, {"name": name, "address": address}).status == 201
            wait_for(lambda: done(api.db) >= 60, "60 matches played", timeout_s=900)
            board = api.request("GET", "/leaderboard").body
    assert [row["name"] for row in board] == ["search", "greedy", "random"], board
    assert board[0]["interval"][0] > board[1]["interval"][0] > board[2]["interval"][0]
    assert_counted_once(api.db, 2)
