"""Ladder soak: honest and hostile bots mixed on a real ``smtourney ladder serve``, watched for hours' worth
of harm in minutes.

    python benchmarks/ladder_soak.py [--minutes 20] [--workers 2] [--sample-s 10] [--logs-mb N]
        [--dir DIR] [--json]

A Saint Malo ladder of two-player tables, bots run in the sandbox as uploaded programs are: three honest
random bots, and one each of a sleeper (over its decision time now and then), a crasher (exits mid-match
now and then), an output flood (8 MiB a match), a memory hog (holds 300 MiB more each match, up to its
limit) and an alternating forfeiter (every other match it exits before its first decision). All are
validated as if checked, the server started with ``--workers``, and every ``--sample-s`` the figures
below are sampled. After ``--minutes`` the server is interrupted (as Ctrl-C does), started again until
it has played the matches the stop left in flight, interrupted again, and the database read.

Reported: matches per minute (over the run, and per sample), resident memory of the server (the
``serve`` process and its workers) and of all bot processes with their sandboxes, over time; bytes of
logs on disk; bots suspended; matches lost (decided, never stored, not resumable), duplicated (a match
stored twice, or a stored match of no ladder match), in flight at the stop (played by the next start)
and bot processes left once it has stopped (all three must be zero), seats with faults, and whether
``smtourney ladder recompute`` agrees with the stored ratings. The memory should stay flat, and the logs
stay within the ladder's log budget, ``--logs-mb`` (default: the ladder file's default, 1 GiB; a
smaller one shows the budget held in a short run).
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
from dataclasses import asdict, dataclass
from pathlib import Path

from server.bot_output import OUTPUT_CAP_BYTES
from server.ladder.config import MIN_BOT_LOGS_MB
from server.ladder.store import LadderStore
from server.store.repository import Store

ROOT = Path(__file__).resolve().parent.parent

_RANDOM = "from bots.random import RandomBot\nfrom sdk.serve import run\n"
BOTS: dict[str, str] = {
    "honest-1": "from bots.random import main\n\nmain()\n",
    "honest-2": "from bots.random import main\n\nmain()\n",
    "honest-3": "from bots.random import main\n\nmain()\n",
    "sleeper": _RANDOM
    + """import random, time


class Sleeper(RandomBot):
    def decide(self, kind, observation, context):
        if random.random() < 0.02:
            time.sleep(1.5)
        return super().decide(kind, observation, context)


run(Sleeper())
""",
    "crasher": _RANDOM
    + """import os, random


class Crasher(RandomBot):
    def decide(self, kind, observation, context):
        if random.random() < 0.004:
            os._exit(3)
        return super().decide(kind, observation, context)


run(Crasher())
""",
    "flood": _RANDOM
    + """import sys


class Flood(RandomBot):
    def start_match(self, match):
        sys.stdout.write("x" * (8 << 20))
        sys.stdout.flush()
        return super().start_match(match)


run(Flood())
""",
    "hog": _RANDOM
    + """held = []


class Hog(RandomBot):
    def start_match(self, match):
        try:
            held.append(b"\\1" * (300 << 20))
        except MemoryError:
            held.clear()
        return super().start_match(match)


run(Hog())
""",
    "alternating": _RANDOM
    + """import os

played = 0


class Alternating(RandomBot):
    def start_match(self, match):
        global played
        played += 1
        return super().start_match(match)

    def decide(self, kind, observation, context):
        if played % 2 == 0:  # a process lives on between matches: every other one it dies in
            os._exit(4)
        return super().decide(kind, observation, context)


run(Alternating())
""",
}
"""Each bot's ``bot.py``, by name."""

LADDER = """name: soak
game: saint_malo
players: 2
startup_timeout_s: 60
time_control: {decision_ms: 1000, bank_ms: 5000}
max_active_bots: 10
"""


@dataclass(frozen=True)
class Sample:
    at_s: float
    matches_done: int
    server_rss_mb: float
    bots_rss_mb: float
    bots_pss_mb: float
    bot_processes: int
    logs_mb: float


@dataclass(frozen=True)
class Ending:
    matches_done: int
    matches_error: int
    resumed: int
    lost: int
    duplicated: int
    suspended: list[str]
    seats_with_faults: int
    bot_processes_left: int
    recompute_agrees: bool


def set_up(folder: Path, logs_mb: int | None) -> Path:
    """The ladder file, with every bot's program written and made active as if validated."""
    ladder_file = folder / "ladder.yaml"
    budget = "" if logs_mb is None else f"logs: {{per_bot_mb: {logs_mb}, total_mb: {logs_mb}}}\n"
    ladder_file.write_text(LADDER + budget)
    with closing(Store.open(ladder_file.with_suffix(".db"), create=True)) as store:
        ladder = LadderStore(store)
        for participant, names in (
            ("honest", [n for n in BOTS if n.startswith("honest")]),
            ("hostile", [n for n in BOTS if not n.startswith("honest")]),
        ):
            ladder.add_participant(participant)
            (owner,) = [row for row in ladder.participants() if row.name == participant]
            assert owner.id is not None
            for name in names:
                program = folder / "programs" / name
                program.mkdir(parents=True)
                (program / "bot.py").write_text(BOTS[name])
                row = ladder.add_bot(
                    owner.id, name, {"dir": str(program), "command": "python bot.py"}, mu=25, sigma=25 / 3
                )
                ladder.finish_validation(row.id, passed=True, reason=None, max_active=10)
    return ladder_file


@contextmanager
def serving(ladder_file: Path, workers: int, logs: Path) -> Iterator[subprocess.Popen[str]]:
    """``smtourney ladder serve`` on a free port, interrupted (as Ctrl-C does) and always ended; what it
    reports goes to ``serve.log`` beside the ladder file."""
    log = (ladder_file.parent / "serve.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server",
            "ladder",
            "serve",
            str(ladder_file),
            "--port",
            "0",
            "--workers",
            str(workers),
            "--log-dir",
            str(logs),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not re.search(r"at http://127\.0\.0\.1:\d+/api/ladder/", line):
            raise SystemExit(f"ladder serve did not start: {line.strip()!r}")
        yield process
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
    finally:
        process.kill()
        process.wait()
        log.close()


def _tree(root: int) -> dict[int, tuple[str, int, int]]:
    """``root`` and its descendants: command line, resident bytes and proportional bytes (shared pages
    split among their users, so a sum counts them once) of each, from one pass over /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = int(
                    Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, IndexError, ValueError):
                continue
    found = {root}
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grew = bool(more)
    tree = {}
    for pid in found:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except (OSError, IndexError, ValueError):
            continue
        found_pss = re.search(r"^Pss:\s+(\d+) kB", rollup, re.MULTILINE)
        pss = 0 if found_pss is None else int(found_pss.group(1)) * 1024
        tree[pid] = (command, pages * os.sysconf("SC_PAGE_SIZE"), pss)
    return tree


def _done(db: Path) -> int:
    with closing(sqlite3.connect(db, timeout=30)) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM ladder_match WHERE status = 'done'").fetchone()
    return int(count)


def _written_bytes(db: Path) -> int:
    """Bytes of output the logs were given at least: the cap of each seat that went over it."""
    with closing(sqlite3.connect(db, timeout=30)) as connection:
        (count,) = connection.execute(
            "SELECT COUNT(*) FROM seat WHERE faults_json LIKE '%output over%'"
        ).fetchone()
    return int(count) * OUTPUT_CAP_BYTES


def _disk_bytes(folder: Path) -> int:
    """Bytes the files under ``folder`` take on disk (blocks, not apparent sizes)."""
    return sum(path.stat().st_blocks * 512 for path in folder.rglob("*") if path.is_file())


def sample(started: float, server: int, db: Path, logs: Path) -> Sample:
    tree = _tree(server)
    ours = {pid for pid, (command, _, _) in tree.items() if pid == server or " -m server" in command}
    mib = 1024 * 1024
    return Sample(
        round(time.monotonic() - started, 1),
        _done(db),
        round(sum(tree[pid][1] for pid in ours) / mib, 1),
        round(sum(rss for pid, (_, rss, _) in tree.items() if pid not in ours) / mib, 1),
        round(sum(pss for pid, (_, _, pss) in tree.items() if pid not in ours) / mib, 1),
        len(tree) - len(ours),
        round(_disk_bytes(logs) / mib, 1) if logs.exists() else 0.0,
    )


def _unfinished(db: Path) -> set[int]:
    with closing(sqlite3.connect(db, timeout=30)) as connection:
        found = connection.execute("SELECT id FROM ladder_match WHERE status IN ('scheduled', 'playing')")
        return {int(ladder_match_id) for (ladder_match_id,) in found}


def resume(ladder_file: Path, workers: int, logs: Path, timeout_s: float = 300) -> set[int]:
    """Start the server again until it has played the matches the stop left in flight; those it has
    not played within ``timeout_s`` (lost ones)."""
    db = ladder_file.with_suffix(".db")
    left = _unfinished(db)
    with serving(ladder_file, workers, logs):
        deadline = time.monotonic() + timeout_s
        while left & _unfinished(db) and time.monotonic() < deadline:
            time.sleep(1)
    return left & _unfinished(db)


def _processes_in(folder: Path) -> int:
    """Live processes whose command line or working folder lies in ``folder`` (bots left behind)."""
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                where = os.readlink(f"/proc/{entry}/cwd")
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            count += state != "Z" and (str(folder) in command or where.startswith(str(folder)))
    return count


def _recompute_agrees(ladder_file: Path) -> bool:
    """Whether ``smtourney ladder recompute`` finds the stored ratings those of a replay."""
    command = [sys.executable, "-m", "server", "ladder", "recompute", str(ladder_file)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, check=False).returncode == 0


def ending(ladder_file: Path, resumed: int, never_played: set[int]) -> Ending:
    """What the database holds once the server has stopped for good."""
    with closing(sqlite3.connect(ladder_file.with_suffix(".db"))) as connection:

        def one(sql: str) -> int:
            (value,) = connection.execute(sql).fetchone()
            return int(value or 0)

        done = one("SELECT COUNT(*) FROM ladder_match WHERE status = 'done'")
        stored = one("SELECT COUNT(*) FROM match")
        linked = one(
            "SELECT COUNT(DISTINCT lm.match_pk) FROM ladder_match lm JOIN match m ON m.id = lm.match_pk "
            "WHERE lm.status = 'done' AND m.match_id = 'ladder-' || lm.id"
        )
        return Ending(
            matches_done=done,
            matches_error=one("SELECT COUNT(*) FROM ladder_match WHERE status = 'error'"),
            resumed=resumed,
            lost=done - linked + len(never_played),
            duplicated=stored - linked,
            suspended=[
                name
                for (name,) in connection.execute(
                    "SELECT name FROM ladder_bot WHERE status = 'suspended' ORDER BY name"
                )
            ],
            seats_with_faults=one("SELECT COUNT(*) FROM seat WHERE faults_json != '[]'"),
            bot_processes_left=_processes_in(ladder_file.parent / "programs"),
            recompute_agrees=_recompute_agrees(ladder_file),
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0, help="How long the ladder plays.")
    parser.add_argument("--workers", type=int, default=2, help="Worker processes of the server.")
    parser.add_argument("--sample-s", type=float, default=10.0, help="Seconds between samples.")
    parser.add_argument(
        "--dir", type=Path, help="Where the ladder lives (default: a fresh temporary folder)."
    )
    parser.add_argument(
        "--logs-mb", type=int, help="The ladder's log budget in MiB (default: the ladder file's default)."
    )
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    if args.minutes <= 0 or args.workers < 1 or args.sample_s <= 0:
        parser.error("--minutes and --sample-s must be positive, --workers at least 1")
    if args.logs_mb is not None and args.logs_mb < MIN_BOT_LOGS_MB:
        parser.error(f"--logs-mb must be at least {MIN_BOT_LOGS_MB}")
    folder = args.dir or Path(tempfile.mkdtemp(prefix="smtourney-soak-"))
    folder.mkdir(parents=True, exist_ok=True)
    ladder_file = set_up(folder, args.logs_mb)
    db, logs = ladder_file.with_suffix(".db"), folder / "logs"
    samples: list[Sample] = []
    with serving(ladder_file, args.workers, logs) as server:
        started = time.monotonic()
        end = started + args.minutes * 60
        while time.monotonic() < end and server.poll() is None:
            samples.append(sample(started, server.pid, db, logs))
            if not args.json:
                print(_sample_line(samples[-1]), flush=True)
            time.sleep(max(0.0, min(args.sample_s, end - time.monotonic())))
        samples.append(sample(started, server.pid, db, logs))
        played_s = time.monotonic() - started
    resumed = len(_unfinished(db))
    never_played = resume(ladder_file, args.workers, logs)
    final = ending(ladder_file, resumed, never_played)
    figures = {
        "minutes": round(played_s / 60, 2),
        "workers": args.workers,
        "matches_per_min": round(samples[-1].matches_done / (played_s / 60), 1),
        "logs_mb_at_end": round(_disk_bytes(logs) / 1024 / 1024, 1),
        "logs_mb_max": max(s.logs_mb for s in samples),
        "logs_written_mb": round(_written_bytes(db) / 1024 / 1024, 1),
        **asdict(final),
        "samples": [asdict(s) for s in samples],
        "folder": str(folder),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(_sample_line(samples[-1]))
    print(
        f"{figures['matches_per_min']} matches/min over {figures['minutes']} min on {args.workers} workers; "
        f"server RSS {_spread([s.server_rss_mb for s in samples])} MiB, "
        f"bots RSS {_spread([s.bots_rss_mb for s in samples])} MiB "
        f"(PSS {_spread([s.bots_pss_mb for s in samples])}), logs {figures['logs_mb_at_end']} MiB"
    )
    print(
        f"logs on disk at most {figures['logs_mb_max']} MiB sampled, {figures['logs_mb_at_end']} MiB at the "
        f"end, of at least {figures['logs_written_mb']} MiB written (the flood's kept 1 MiB a match)"
    )
    print(
        f"done {final.matches_done}, error {final.matches_error}, in flight at the stop and played by the "
        f"next start {final.resumed}, lost {final.lost}, duplicated {final.duplicated}; bot processes left "
        f"{final.bot_processes_left}; suspended: {', '.join(final.suspended) or 'none'}; seats with faults "
        f"{final.seats_with_faults}; ladder recompute {'agrees' if final.recompute_agrees else 'DISAGREES'}"
    )


def _sample_line(s: Sample) -> str:
    return (
        f"{s.at_s:7.1f} s  done {s.matches_done:5}  server RSS {s.server_rss_mb:7.1f} MiB  "
        f"bots RSS {s.bots_rss_mb:7.1f} MiB (PSS {s.bots_pss_mb:7.1f}, {s.bot_processes} processes)  "
        f"logs {s.logs_mb:6.1f} MiB"
    )


def _spread(values: list[float]) -> str:
    return f"min {min(values):.0f} / max {max(values):.0f} / last {values[-1]:.0f}"


if __name__ == "__main__":
    main()
