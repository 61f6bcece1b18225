"""A bot's processes end when it leaves play, in every worker: a real ``smtourney ladder serve`` with two
workers, uploaded programs launched in the real sandbox, and the real process table."""

from __future__ import annotations

import os
import time
from contextlib import closing
from pathlib import Path

from server.ladder.store import LadderStore
from server.store.repository import Store

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
