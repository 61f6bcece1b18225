"""A Ray worker killed in the middle of a match loses only that match: a fresh actor plays it again
and the tournament ends as if nothing had happened."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

from ..conftest import processes_with
from ..tiny_bracket import MATCHES
from .helpers import cli, run_args, standings_json, start_run, stored_match_ids, write_bracket


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def command_line(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


def test_a_killed_ray_worker_loses_only_its_match(tmp_path: Path, tag: str, ray_address: str) -> None:
    reference_bracket = write_bracket(tmp_path / "reference")
    reference_db = str(tmp_path / "reference.db")
    code, output = cli(*run_args(reference_bracket, reference_db, "local", None))
    assert code == 0, output

    bracket = write_bracket(tmp_path / "ray", tag)
    db = str(tmp_path / "ray.db")
    run = start_run(run_args(bracket, db, "ray", ray_address))
    try:
        deadline = time.monotonic() + 120
        actor = None
        while actor is None:  # a bot of a match in play, launched by a Ray actor
            assert run.poll() is None, f"the run ended before a worker was killed: {run.communicate()[0]}"
            assert time.monotonic() < deadline, "no match started in time"
            for bot in processes_with(tag):
                try:
                    parent = parent_of(bot)
                    if "MatchActor" in command_line(parent):
                        actor = parent
                        break
                except (OSError, IndexError):
                    continue  # the bot ended meanwhile
            time.sleep(0.05)
        stored_before = len(stored_match_ids(db))
        os.kill(actor, signal.SIGKILL)
        output, _ = run.communicate(timeout=180)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 0, output
    replayed = re.findall(r"replay: match (\S+) is played again: its Ray worker died", output)
    assert len(replayed) == 1, output
    assert stored_before < MATCHES
    stored = stored_match_ids(db)
    assert len(stored) == len(set(stored)) == MATCHES and replayed[0] in stored
    assert standings_json(db) == standings_json(reference_db)
    assert all(parent_of(bot) != actor for bot in processes_with(tag) if Path(f"/proc/{bot}").exists())
