"""Ladder soak: honest and hostile uploaded bots play a real ``smtourney ladder serve`` for a while.

    python benchmarks/ladder_soak.py [--minutes 20] [--workers 2] [--sample-s 10] [--json]

Two participants' programs, all launched in the sandbox as uploads are: four honest random bots, and
one of each hostile kind: a sleeper (slow answers, now and then past the decision time), a crasher
(exits in the middle of a match now and then), a flooder (writes 32 MiB at the start of every match),
a memory hog (holds 400 MiB while it plays) and an alternating forfeiter (answers with errors in every
other match). Every ``--sample-s`` seconds the resident memory of the service, of its workers and of
all bot processes (and how many there are) is read from ``/proc``, with the matches stored so far and
the bytes of the log folder. At the end the service is stopped and the database is checked: every done
ladder match stored exactly once (lost and duplicated matches: both must be 0), and
``smtourney ladder recompute`` agreeing with the stored ratings.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from server.ladder.store import LadderStore
from server.store.repository import Store

ROOT = Path(__file__).resolve().parents[1]

HEADER = "import os, random, sys, time\nfrom bots.random import RandomBot\nfrom sdk.serve import run\n\n\n"
BOTS: dict[str, str] = {
    "honest": "from bots.random import main\n\nmain()\n",
    "sleeper": HEADER
    + """class Sleeper(RandomBot):
    def decide(self, kind, observation, context):
        time.sleep(1.5 if context.decision_id % 15 == 0 else 0.3)
        return super().decide(kind, observation, context)


run(Sleeper())
""",
    "crasher": HEADER
    + """class Crasher(RandomBot):
    def decide(self, kind, observation, context):
        if random.Random(f"{context.match_id}/{context.decision_id}").random() < 1 / 40:
            os._exit(1)
        return super().decide(kind, observation, context)


run(Crasher())
""",
    "flooder": HEADER
    + """class Flooder(RandomBot):
    def start_match(self, match):
        sys.stdout.write("x" * (32 << 20))
        sys.stdout.flush()
        return super().start_match(match)


run(Flooder())
""",
    "hog": HEADER
    + """class Hog(RandomBot):
    held = b""

    def start_match(self, match):
        Hog.held = Hog.held or b"x" * (400 << 20)
        return super().start_match(match)


run(Hog())
""",
    "alternating": HEADER
    + """class Alternating(RandomBot):
    matches = 0

    def start_match(self, match):
        Alternating.matches += 1
        return super().start_match(match)

    def decide(self, kind, observation, context):
        if Alternating.matches % 2 == 0:
            raise RuntimeError("forfeiting this one")
        return super().decide(kind, observation, context)


run(Alternating())
""",
}
HONEST_BOTS = 4
LADDER = """name: soak
game: saint_malo
players: 2
time_control: {decision_ms: 1000, bank_ms: 5000}
startup_timeout_s: 30
max_active_bots: 10
matchmaking: {workers: WORKERS}
"""


def build(folder: Path, workers: int) -> Path:
    """The ladder file, its database and the bots' program folders, every bot active."""
    path = folder / "ladder.yaml"
    path.write_text(LADDER.replace("WORKERS", str(workers)))
    with closing(Store.open(path.with_suffix(".db"), create=True)) as store:
        ladders = LadderStore(store)
        for participant in ("honest", "hostile"):
            ladders.add_participant(participant)
        owners = {p.name: p.id for p in ladders.participants()}
        names = [f"honest{i}" for i in range(HONEST_BOTS)] + [kind for kind in BOTS if kind != "honest"]
        for name in names:
            program = folder / "programs" / name
            program.mkdir(parents=True)
            (program / "bot.py").write_text(BOTS["honest" if name.startswith("honest") else name])
            owner = owners["honest" if name.startswith("honest") else "hostile"]
            assert owner is not None
            spec = {"dir": str(program), "command": "python bot.py"}
            row = ladders.add_bot(owner, name, spec, mu=25, sigma=25 / 3)
            ladders.finish_validation(row.id, passed=True, reason=None, max_active=10)
    return path


@contextmanager
def served(ladder_file: Path, workers: int) -> Iterator[subprocess.Popen[str]]:
    """``smtourney ladder serve`` on 127.0.0.1, its logs beside the ladder; stopped with SIGINT."""
    options = ["--port", "0", "--workers", str(workers), "--log-dir", str(ladder_file.parent / "logs")]
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "ladder", "serve", str(ladder_file), *options],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if re.search(r"at http://127\.0\.0\.1:\d+/api/ladder/", line) is None:
            raise RuntimeError(f"the ladder did not start: {line}")
        yield process
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _processes() -> dict[int, tuple[int, int, str]]:
    """Every live process: its parent, resident memory (bytes) and command line."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        rss = int(fields.get("VmRSS", "0 kB").split()[0]) * 1024
        found[int(entry)] = (int(fields["PPid"]), rss, command)
    return found


def sample(server: int, db: Path, logs: Path, started: float) -> dict[str, float]:
    """The memory of the service, its workers and every bot process below it; matches and log bytes."""
    processes = _processes()
    below: list[int] = []
    todo = [server]
    while todo:
        parent = todo.pop()
        children = [pid for pid, (ppid, _, _) in processes.items() if ppid == parent]
        below += children
        todo += children
    workers = [pid for pid in below if "server.tournament.worker" in processes[pid][2]]
    bots = [pid for pid in below if pid not in workers]
    return {
        "t_s": round(time.monotonic() - started, 1),
        "matches": _one(db, "SELECT COUNT(*) FROM ladder_match WHERE status = 'done'"),
        "server_rss_mb": processes.get(server, (0, 0, ""))[1] / 2**20,
        "workers_rss_mb": sum(processes[pid][1] for pid in workers) / 2**20,
        "bots_rss_mb": sum(processes[pid][1] for pid in bots) / 2**20,
        "bot_processes": len(bots),
        "log_mb": sum(path.stat().st_size for path in logs.rglob("*") if path.is_file()) / 2**20,
    }


def _one(db: Path, sql: str) -> int:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as connection:
        value = connection.execute(sql).fetchone()[0]
    return int(value or 0)


def soak(minutes: float, workers: int, sample_s: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ladder-soak-") as name:
        folder = Path(name)
        ladder_file = build(folder, workers)
        db, logs = ladder_file.with_suffix(".db"), folder / "logs"
        samples = []
        started = time.monotonic()
        with served(ladder_file, workers) as process:
            deadline = started + 60 * minutes
            while time.monotonic() < deadline and process.poll() is None:
                samples.append(sample(process.pid, db, logs, started))
                time.sleep(min(sample_s, max(0.0, deadline - time.monotonic())))
            samples.append(sample(process.pid, db, logs, started))
            elapsed = time.monotonic() - started
        done = _one(db, "SELECT COUNT(*) FROM ladder_match WHERE status = 'done'")
        stored = _one(db, "SELECT COUNT(*) FROM match")
        distinct = _one(db, "SELECT COUNT(DISTINCT match_id) FROM match")
        linked = _one(
            db,
            "SELECT COUNT(DISTINCT m.id) FROM ladder_match lm JOIN match m ON m.id = lm.match_pk "
            "WHERE lm.status = 'done' AND m.match_id = 'ladder-' || lm.id",
        )
        statuses = {
            status: _one(db, f"SELECT COUNT(*) FROM ladder_bot WHERE status = '{status}'")
            for status in ("active", "suspended", "retired")
        }
        faulted = _one(db, "SELECT COUNT(*) FROM seat WHERE faults_json != '[]'")
        recompute = subprocess.run(
            [sys.executable, "-m", "server", "ladder", "recompute", str(ladder_file), "--db", str(db)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        return {
            "minutes": elapsed / 60,
            "workers": workers,
            "matches": done,
            "matches_per_min": done / (elapsed / 60),
            "lost": done - linked,  # done decisions whose match is not stored under their id
            "duplicated": (stored - distinct) + (distinct - linked),  # stored twice, or for no done decision
            "seats_with_faults": faulted,
            "bots": statuses,
            "recompute_agrees": recompute.returncode == 0,
            "samples": samples,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sample-s", type=float, default=10.0)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    figures = soak(args.minutes, args.workers, args.sample_s)
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"ladder soak: {figures['minutes']:.1f} min on {figures['workers']} workers, "
        f"{figures['matches']} matches "
        f"({figures['matches_per_min']:.1f}/min); lost {figures['lost']}, duplicated {figures['duplicated']} "
        f"(bar: 0 and 0); recompute {'agrees' if figures['recompute_agrees'] else 'DISAGREES'}; "
        f"bots at the end: {figures['bots']}; seats with faults: {figures['seats_with_faults']}"
    )
    columns = ("t (s)", "matches", "server MB", "workers MB", "bots MB", "bot procs", "logs MB")
    print(" ".join(f"{column:>10}" for column in columns))
    for s in figures["samples"]:
        print(
            f"{s['t_s']:>10.0f} {s['matches']:>10} {s['server_rss_mb']:>10.1f} {s['workers_rss_mb']:>10.1f} "
            f"{s['bots_rss_mb']:>10.1f} {s['bot_processes']:>10} {s['log_mb']:>10.1f}"
        )


if __name__ == "__main__":
    main()
