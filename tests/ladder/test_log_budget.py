"""The ladder's logs stay within their budget on disk, on real parts (sandboxed flooding bots, real
workers, a real SQLite file, the API on 127.0.0.1): each bot keeps its newest logs, the folder its
total, a kept process's own log its cap, and the owner still reads their bot's newest match log."""

from __future__ import annotations

import http.client
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
import uvicorn

from server.bot_output import OUTPUT_CAP_BYTES, PROCESS_LOG_CAP_BYTES, CappedOutput
from server.ladder.api import create_app
from server.ladder.config import load_ladder
from server.ladder.history import matches_of
from server.ladder.log_budget import LogBudget, prune, seat_log
from server.ladder.seating import ladder_match_of
from server.ladder.store import LadderStore
from server.tournament.bracket_errors import BracketError
from server.tournament.executor import ExecutorChoice

from .test_bot_output import FLOODING_IN_MATCHES, QUIET, program
from .test_loop_kinds import ladder_with, play

MIB = 1024 * 1024


def disk_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


@contextmanager
def api(ladder_file: Path, ladders: LadderStore, logs: Path) -> Iterator[int]:
    """The ladder's API on 127.0.0.1 on a port it picks, reading ``logs``; always stopped."""
    ladder = load_ladder(ladder_file)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(ladder, ladders, log_dir=logs), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join()
        sock.close()


def get(port: int, path: str, token: str) -> tuple[int, bytes]:
    with closing(http.client.HTTPConnection("127.0.0.1", port, timeout=30)) as connection:
        connection.request("GET", f"/api/ladder{path}", headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        return response.status, response.read()


def test_a_flooding_ladder_leaves_at_most_its_budget_and_the_owner_reads_the_newest_log(
    tmp_path: Path,
) -> None:
    budget_mb = 5
    ladder, store, ladders = ladder_with(
        tmp_path,
        "name: f\ngame: saint_malo\nplayers: 2\nstartup_timeout_s: 60\n"
        f"logs: {{per_bot_mb: {budget_mb}, total_mb: {budget_mb}}}\n",
        {
            "loud": program(tmp_path, "loud", FLOODING_IN_MATCHES),
            "quiet": program(tmp_path, "quiet", QUIET),
        },
    )
    logs = tmp_path / "logs"
    with closing(store):
        # each match writes the flood's 1 MiB cap: 8 matches write more than the budget
        play(ladder, ladders, 8, ExecutorChoice(), logs)
        assert ladders.played() >= 8
        (owner,) = ladders.participants()
        assert owner.id is not None
        done = [match.id for match in matches_of(store, owner.id, bot="loud") if match.status == "done"]
        token = ladders.rotate_token("ada")
        other = ladders.add_participant("bea")
        with api(tmp_path / "ladder.yaml", ladders, logs) as port:
            served = get(port, "/bots/loud/log", token)
            someone_elses = get(port, "/bots/loud/log", other)
            oldest_kept = min(
                ladder_match_of(named.match_id) or 0
                for named in map(seat_log, os.listdir(logs))
                if named is not None and named.bot == "ada_loud"
            )
            one_match = get(port, f"/bots/loud/log?match={oldest_kept}", token)
            one_match_to_another = get(port, f"/bots/loud/log?match={oldest_kept}", other)
            one_match_to_the_public = get(port, f"/bots/loud/log?match={oldest_kept}", "")
            not_kept = get(port, f"/bots/loud/log?match={min(done) + 10_000}", token)
    assert disk_bytes(logs) <= budget_mb * MIB
    kept = {
        ladder_match_of(named.match_id)
        for named in map(seat_log, os.listdir(logs))
        if named is not None and named.bot == "ada_loud"
    }
    newest = max(done)
    assert newest in kept  # the newest match's log is kept, older ones went first
    assert len(kept) < len(done)  # some were deleted: the budget was exceeded without pruning
    # served: the log written last (of the newest match, or of one the stop left in flight)
    status, body = served
    assert status == 200
    newest_file = max(logs.glob("ladder-*.seat*.ada_loud.log"), key=lambda path: path.stat().st_mtime)
    named = seat_log(newest_file.name)
    assert named is not None and (ladder_match_of(named.match_id) or 0) >= newest
    assert body == newest_file.read_bytes()[-PROCESS_LOG_CAP_BYTES:]
    assert f"[smtourney] match {named.match_id}".encode() in body
    (newest_done,) = logs.glob(f"ladder-{newest}.seat*.ada_loud.log")
    assert b"x" * 1000 in newest_done.read_bytes()  # the newest played match's output, whole
    assert someone_elses[0] == 404
    # one match's log: to its bot's owner only
    (oldest_file,) = logs.glob(f"ladder-{oldest_kept}.seat*.ada_loud.log")
    assert one_match == (200, oldest_file.read_bytes()[-PROCESS_LOG_CAP_BYTES:])
    assert one_match_to_another[0] == 404 and one_match_to_the_public[0] == 401
    assert not_kept[0] == 404


def test_prune_keeps_each_bots_newest_logs_then_the_newest_of_all(tmp_path: Path) -> None:
    def log(name: str, size: int, age: int) -> Path:
        path = tmp_path / name
        path.write_bytes(b"x" * size)
        os.utime(path, (1_000_000 - age, 1_000_000 - age))
        return path

    a = [log(f"ladder-{i}.seat0.ada_a.log", 100, age=10 - i) for i in range(5)]
    b = [log(f"ladder-{i}.seat1.ada_b.log", 300, age=10 - i) for i in range(5)]
    error = log("ladder-1.referee-error.log", 50, age=20)
    check = tmp_path / "checks" / "bot-1"
    check.mkdir(parents=True)
    (check / "check.txt").write_bytes(b"y" * 40)
    os.utime(check / "check.txt", (1_000_000 - 30, 1_000_000 - 30))
    workers = log("workers.log", 10, age=100)

    pruned = prune(tmp_path, LogBudget(per_bot_matches=3, per_bot_bytes=700, total_bytes=900))

    # a: its newest 3; b: its newest 2 (a third would pass 700 bytes); then the oldest of all go
    # until 900 bytes: the check folder, the referee's log, then a's oldest kept log
    assert [p.exists() for p in a] == [False, False, False, True, True]
    assert [p.exists() for p in b] == [False, False, False, True, True]
    assert not error.exists() and not check.exists() and workers.exists()
    assert disk_bytes(tmp_path) == pruned.kept_bytes == 2 * 100 + 2 * 300 + 10
    assert pruned.files == 2 + 3 + 3


def test_a_deleted_log_still_held_open_gives_its_space_back(tmp_path: Path) -> None:
    path = tmp_path / "ladder-1.seat0.ada_a.log"
    with path.open("ab") as held:
        held.write(b"x" * MIB)
        held.flush()
        prune(tmp_path, LogBudget(per_bot_matches=1, per_bot_bytes=MIB, total_bytes=1))
        assert not path.exists() and os.fstat(held.fileno()).st_size == 0


def test_a_kept_process_log_stays_under_its_cap_and_holds_the_newest_match(tmp_path: Path) -> None:
    path = tmp_path / "bot.log"
    read, write = os.pipe()
    with path.open("ab") as log:
        output = CappedOutput(read, log)
        try:
            for match in range(12):
                output.new_period()
                before = path.stat().st_size
                chunk = f"match {match} ".encode() + b"x" * (OUTPUT_CAP_BYTES - 64)
                os.write(write, chunk)
                deadline = time.monotonic() + 10
                while path.stat().st_size < before + len(chunk):
                    assert time.monotonic() < deadline
                    time.sleep(0.01)
                assert path.stat().st_size <= PROCESS_LOG_CAP_BYTES
        finally:
            os.close(write)
            output.drain()
    text = path.read_bytes()
    assert b"match 11 " in text and b"match 0 " not in text
    assert text.startswith(b"[smtourney] earlier matches' output removed")


@pytest.mark.parametrize(
    ("logs", "expected"),
    [
        ("logs: {total_mb: 0}", ":4: logs.total_mb: must be at least 5, got 0"),
        ("logs:\n  per_bot_mb: 64\n  total_mb: 32", ":5: logs.per_bot_mb: cannot be more than total_mb"),
        ("logs: {per_bot_matches: many}", ":4: logs.per_bot_matches: expected an integer, got 'many'"),
    ],
)
def test_a_bad_log_budget_is_one_line_with_file_line_and_field(
    tmp_path: Path, logs: str, expected: str
) -> None:
    path = tmp_path / "l.yaml"
    path.write_text(f"name: l\ngame: saint_malo\nplayers: 2\n{logs}\n")
    with pytest.raises(BracketError) as caught:
        load_ladder(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and expected in message and "\n" not in message


def test_the_default_log_budget_is_a_gibibyte(tmp_path: Path) -> None:
    path = tmp_path / "l.yaml"
    path.write_text("name: l\ngame: saint_malo\nplayers: 2\n")
    budget = load_ladder(path).logs.budget()
    assert budget == LogBudget(per_bot_matches=100, per_bot_bytes=64 * MIB, total_bytes=1024 * MIB)
