"""A bot's processes end when it leaves play, in every worker: a real ``smtourney ladder serve`` with two
workers, uploaded programs launched in the real sandbox, and the real process table."""

from __future__ import annotations

import os
import signal
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Literal, cast

import pytest

from server.ladder.store import LadderStore
from server.referee import RefereeConfig
from server.sandbox import _pids_parents
from server.seats import SeatSpec
from server.store.repository import Store
from server.tournament.executor import ExecutorChoice
from server.tournament.executors import start_executor
from server.tournament.jobs import MatchJob

from .test_api import served
from .test_loop import done, wait_for
from .test_organiser import add

RETIRED_GONE_WITHIN_S = 30
BOT = "from bots.random import main\n\nmain()\n"


def processes_of(program: Path) -> list[int]:
    """The live processes (zombies aside) that run the program in ``program``: its sandbox's launcher
    and bubblewrap name the folder on their command line, the bot itself works in it."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            where = os.readlink(f"/proc/{entry}/cwd")
        except (OSError, IndexError):
            continue
        if state != "Z" and (str(program) in command or where == str(program)):
            found.append(int(entry))
    return found


def test_a_retired_bot_s_processes_are_gone_within_seconds_in_every_worker(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text(
        "name: lifetime\ngame: saint_malo\nplayers: 2\nstartup_timeout_s: 60\n"
        "time_control: {decision_ms: 1000, bank_ms: 5000}\n"
    )
    db = path.with_suffix(".db")
    token = add(db, "ada")
    programs = {name: tmp_path / "programs" / name for name in ("a", "b", "c")}
    with closing(Store.open(db)) as store:
        ladder = LadderStore(store)
        (owner,) = ladder.participants()
        assert owner.id is not None
        for name, program in programs.items():
            program.mkdir(parents=True)
            (program / "bot.py").write_text(BOT)
            spec = {"dir": str(program), "command": "python bot.py"}
            row = ladder.add_bot(owner.id, name, spec, mu=25, sigma=25 / 3)
            ladder.finish_validation(row.id, passed=True, reason=None, max_active=10)
    with served(path, "--workers", "2", "--log-dir", str(tmp_path / "logs")) as api:
        # every bot has played in both workers, so each worker keeps a process of each
        wait_for(lambda: done(db) >= 12 and processes_of(programs["a"]), "twelve matches played")
        assert api.request("POST", "/bots/a/retire", token).status == 200
        retired_at = time.monotonic()
        wait_for(lambda: not processes_of(programs["a"]), "the retired bot's processes gone", 60)
        gone_after = time.monotonic() - retired_at
        played = done(db)
        wait_for(lambda: done(db) >= played + 2, "two more matches")  # the others play on
        assert processes_of(programs["b"]) and processes_of(programs["c"])
        assert not processes_of(programs["a"])
    assert gone_after <= RETIRED_GONE_WITHIN_S, f"the retired bot's processes lived {gone_after:.1f} s"


def descendants(pid: int) -> set[int]:
    """``pid``'s live descendants, from one pass over ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def leftovers(launchers: set[int]) -> list[Path]:
    """Socket folders and cgroups made by sandboxes of those launcher processes."""
    places = [Path(tempfile.gettempdir()), *_pids_parents()]
    found = []
    for place in places:
        for path in place.glob("smtourney-bot-*"):
            launcher = path.name.removeprefix("smtourney-bot-").split("-")[0].split(".")[0]
            if launcher.isdigit() and int(launcher) in launchers:
                found.append(path)
    return found


def playing_ladder(tmp_path: Path) -> Path:
    """A ladder file whose two uploaded programs are active."""
    path = tmp_path / "ladder.yaml"
    path.write_text("name: stop\ngame: saint_malo\nplayers: 2\nstartup_timeout_s: 60\n")
    db = path.with_suffix(".db")
    add(db, "ada")
    with closing(Store.open(db)) as store:
        ladder = LadderStore(store)
        (owner,) = ladder.participants()
        assert owner.id is not None
        for name in ("a", "b"):
            program = tmp_path / "programs" / name
            program.mkdir(parents=True)
            (program / "bot.py").write_text(BOT)
            row = ladder.add_bot(
                owner.id, name, {"dir": str(program), "command": "python bot.py"}, mu=25, sigma=8
            )
            ladder.finish_validation(row.id, passed=True, reason=None, max_active=10)
    return path


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_or_killed_service_leaves_no_socket_folder_or_cgroup_after_the_next_start(
    tmp_path: Path, how: signal.Signals
) -> None:
    path = playing_ladder(tmp_path)
    db = path.with_suffix(".db")
    logs = str(tmp_path / "logs")
    with served(path, "--workers", "2", "--log-dir", logs) as api:
        assert api.process is not None
        wait_for(lambda: done(db) >= 4, "four matches played")
        launchers = descendants(api.process.pid) | {api.process.pid}
        assert leftovers(launchers), "the sandboxes' folders are found while they play"
        api.process.send_signal(how)
        api.process.wait(timeout=60)
    if how == signal.SIGTERM:  # cleaned up on the way out
        assert leftovers(launchers) == [], (api.process.pid, launchers, api.process.returncode)
    with served(path, "--workers", "2", "--log-dir", logs) as api:  # a SIGKILL's, by the next start
        wait_for(lambda: not leftovers(launchers), "the last run's leftovers swept", 10)
        assert done(db) >= 4


@pytest.mark.parametrize("executor", ["local", "ray"])
def test_every_executor_stops_the_kept_processes_of_bots_not_kept(tmp_path: Path, executor: str) -> None:
    programs = {name: tmp_path / "programs" / name for name in ("a", "b")}
    for program in programs.values():
        program.mkdir(parents=True)
        (program / "bot.py").write_text(BOT)
    specs = tuple(
        SeatSpec(name, command="python bot.py", program_dir=path) for name, path in programs.items()
    )
    job = MatchJob(
        0, "saint_malo", "m0", 1, specs, {}, RefereeConfig(startup_timeout_s=60), tmp_path / "logs"
    )
    name = cast(Literal["local", "ray"], executor)
    games = start_executor(ExecutorChoice(name), 1, tmp_path / "logs")
    try:
        games.submit(job)
        assert games.ready(120)
        result = games.next_result()
        assert result.record is not None and result.record.record.end_reason == "completed"
        assert processes_of(programs["a"]) and processes_of(programs["b"]), "both kept after the match"
        games.keep_only(frozenset({"a"}))
        wait_for(lambda: not processes_of(programs["b"]), "b's processes gone", RETIRED_GONE_WITHIN_S)
        assert processes_of(programs["a"])
    finally:
        games.close(graceful=True)
    assert not processes_of(programs["a"])
