"""Validation while the service runs: several at once, each participant in turn, each bounded in
time; and the program folders of failed and retired bots deleted. Against a real ``ladder serve``,
real bot servers and a real listener on 127.0.0.1 that accepts and never answers."""

from __future__ import annotations

import json
import time
import urllib.parse
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from sdk.serve import BotServer
from server.ladder import validators
from server.ladder.checking import report_folder
from server.ladder.config import load_ladder
from server.ladder.programs import Programs
from server.ladder.store import LadderStore
from server.ladder.validators import ValidationPool, next_turn
from server.store.repository import Store

from .test_addresses import listening
from .test_api import LOOPBACK, Api, served
from .test_archive import member, tar_gz
from .test_organiser import add, rows
from .test_validation import bot_server  # noqa: F401  (the fixture)


def test_the_next_turn_goes_to_the_participant_who_waited_longest() -> None:
    pending = [(1, 10, "a"), (2, 10, "b"), (3, 20, "c"), (4, 30, "d")]
    assert next_turn(pending, {}, {}, 1) == (1, 10, "a")
    assert next_turn(pending, {1: 10}, {10: 0}, 1) == (3, 20, "c")  # 10 has its share running
    assert next_turn(pending, {1: 10}, {10: 0}, 2) == (3, 20, "c")  # 20 never started one
    assert next_turn(pending, {}, {10: 5, 20: 3, 30: 4}, 1) == (3, 20, "c")
    assert next_turn(pending, {1: 10, 3: 20, 4: 30}, {}, 1) is None


def wait_for(condition: Callable[[], bool], what: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout_s} s: {what}"
        time.sleep(0.2)


def statuses(db: Path, participant: str) -> list[str]:
    return [
        str(status)
        for (status,) in rows(
            db,
            "SELECT b.status FROM ladder_bot b JOIN ladder_participant p ON p.id = b.participant_id "
            f"WHERE p.name = '{participant}' ORDER BY b.id",
        )
    ]


def test_a_participant_s_hanging_submissions_do_not_hold_up_another_s(
    tmp_path: Path,
    bot_server: BotServer,  # noqa: F811
) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text(
        "name: v\ngame: saint_malo\nplayers: 2\nmax_active_bots: 10\nsubmissions_per_hour: 100\n"
        "validation: {workers: 2, timeout_s: 30}\n" + LOOPBACK
    )
    mallory, ada = add(tmp_path / "ladder.db", "mallory"), add(tmp_path / "ladder.db", "ada")
    with listening() as black_hole, served(path, "--log-dir", str(tmp_path / "logs")) as api:
        for number in range(8):
            body = {"name": f"hang{number}", "address": f"127.0.0.1:{black_hole.port}"}
            assert api.request("POST", "/bots", mallory, body).status == 201
        honest = {"name": "honest", "address": f"127.0.0.1:{bot_server.port}"}
        assert api.request("POST", "/bots", ada, honest).status == 201
        wait_for(lambda: statuses(api.db, "ada") != ["validating"], "the honest bot validated")
        assert statuses(api.db, "ada") == ["active"], rows(
            api.db, "SELECT reason FROM ladder_bot WHERE name = 'honest'"
        )
        # It did not wait its turn behind the 8 earlier submissions (5 s each at least: the health
        # check's own time-out).
        assert statuses(api.db, "mallory").count("validating") >= 4, statuses(api.db, "mallory")
        wait_for(lambda: "validating" not in statuses(api.db, "mallory"), "the hanging bots failed")
    reasons = rows(api.db, "SELECT DISTINCT reason FROM ladder_bot WHERE name LIKE 'hang%'")
    assert [str(reason).replace(str(black_hole.port), "PORT") for (reason,) in reasons] == [
        "FAIL health: the bot at 127.0.0.1:PORT did not answer Health/Check with SERVING -- fix: "
        "is it running, serving grpc.health.v1.Health, and reachable from the ladder?"
    ]


def test_a_validation_that_takes_too_long_is_ended_and_fails(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: v\ngame: saint_malo\nplayers: 2\nvalidation: {timeout_s: 0.5}\n" + LOOPBACK)
    ladder = load_ladder(path)
    add(ladder.database_path, "mallory")
    with listening() as black_hole, closing(Store.open(ladder.database_path)) as store:
        ladders = LadderStore(store)
        (mallory,) = ladders.participants()
        assert mallory.id is not None
        ladders.add_bot(mallory.id, "hang", {"address": f"127.0.0.1:{black_hole.port}"}, mu=25, sigma=8)
        pool = ValidationPool(ladders, ladder, tmp_path / "logs", Programs(tmp_path / "data"))
        pool.start()
        try:
            wait_for(lambda: ladders.bots()[0].status != "validating", "the validation ended", 60)
        finally:
            pool.stop()
        (bot,) = ladders.bots()
    assert (bot.status, bot.reason) == (
        "failed",
        "FAIL validation: took longer than 0.5 s, this ladder's most",
    )


def _program_dirs(api: Api) -> dict[str, Path]:
    return {
        str(name): Path(json.loads(str(spec))["dir"])
        for name, spec in rows(api.db, "SELECT name, spec_json FROM ladder_bot ORDER BY id")
    }


def test_the_folders_of_failed_and_retired_bots_are_deleted(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: v\ngame: saint_malo\nplayers: 2\nmax_active_bots: 3\nstartup_timeout_s: 5\n")
    token = add(tmp_path / "ladder.db", "ada")
    with served(path, "--log-dir", str(tmp_path / "logs")) as api:
        programs = {"broken": b"raise SystemExit(3)\n", "kept": b"from bots.random import main\nmain()\n"}
        for name in ("broken", "kept", "retired"):
            query = urllib.parse.urlencode({"name": name, "command": "python bot.py"})
            archive = tar_gz(member("bot.py", programs.get(name, b"")))
            assert api.request("POST", f"/bots/archive?{query}", token, raw=archive).status == 201
        folders = _program_dirs(api)
        assert all(folder.is_dir() for folder in folders.values())
        assert api.request("POST", "/bots/retired/retire", token).status == 200
        wait_for(lambda: not folders["retired"].exists(), "the retired bot's folder deleted", 30)
        wait_for(lambda: statuses(api.db, "ada")[:2] == ["failed", "active"], "the bots validated")
        wait_for(lambda: not folders["broken"].exists(), "the failed bot's folder deleted", 30)
        assert (folders["kept"] / "bot.py").is_file()


def test_a_validation_that_cannot_run_fails_the_bot_after_a_few_tries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure that is not a database outage (here the bot's report folder cannot be made: a file
    is in its place) is tried a few times, then ends the bot ``failed`` with the reason, instead of
    keeping it ``validating`` for ever."""
    monkeypatch.setattr(validators, "FAILURE_PAUSE_S", 0.1)
    path = tmp_path / "ladder.yaml"
    path.write_text("name: v\ngame: saint_malo\nplayers: 2\n" + LOOPBACK)
    ladder = load_ladder(path)
    add(ladder.database_path, "mallory")
    logs = tmp_path / "logs"
    lines: list[str] = []
    with closing(Store.open(ladder.database_path)) as store:
        ladders = LadderStore(store)
        (mallory,) = ladders.participants()
        assert mallory.id is not None
        bot_id = ladders.add_bot(mallory.id, "stuck", {"address": "127.0.0.1:9"}, mu=25, sigma=8).id
        assert bot_id is not None
        report_folder(logs, bot_id).parent.mkdir(parents=True)
        report_folder(logs, bot_id).write_text("in the way")
        pool = ValidationPool(ladders, ladder, logs, Programs(tmp_path / "data"), report=lines.append)
        pool.start()
        try:
            wait_for(lambda: ladders.bots()[0].status != "validating", "the validation given up", 30)
        finally:
            pool.stop()
        (bot,) = ladders.bots()
    assert bot.status == "failed"
    assert bot.reason is not None and bot.reason.startswith(
        f"FAIL validation: could not be run ({validators.MAX_TRIES} tries): FileExistsError: "
    ), bot.reason
    assert len(lines) == validators.MAX_TRIES, lines
    assert lines[-1].startswith(f"validation of bot {bot_id} given up: FileExistsError: "), lines
