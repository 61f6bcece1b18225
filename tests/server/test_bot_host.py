"""Bots kept up between matches (server.bot_host), with real bot processes.

A kept process plays its entrant's next match; a crashed one is stopped and a new one plays
the next match; self-play seats get a process each; a process never sees one seed twice;
the CPU limit counts the CPU of the match being played.
"""

from __future__ import annotations

import math
import os
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from sdk.games.registry import get_game
from server.bot_host import BotHost, _CpuWatch, cpu_seconds, process_tree
from server.launcher import BotProcess, Limits
from server.record import MatchRecord
from server.referee import RefereeConfig, StepCallback, TimeControl, run_match
from server.resimulate import resimulate
from server.seats import SeatSpec

from ..conftest import bots_with, processes_with
from .conftest import launched
from .test_faults import CASES

UNLIMITED = Limits(memory_mb=None)


@pytest.fixture
def host() -> Iterator[BotHost]:
    bots = BotHost()
    try:
        yield bots
    finally:
        bots.close()


def play(
    host: BotHost,
    specs: Sequence[SeatSpec],
    log_dir: Path,
    match_id: str,
    *,
    seed: int = 1,
    limits: Limits = UNLIMITED,
) -> MatchRecord:
    config = RefereeConfig(TimeControl(2000, 5000), startup_timeout_s=30.0, limits=limits)
    return run_match(
        get_game("saint_malo"), specs, match_id=match_id, seed=seed, config=config, log_dir=log_dir, host=host
    )


def logs(log_dir: Path) -> list[str]:
    return sorted(path.name for path in log_dir.glob("*.log"))


def test_a_crashed_reused_bot_is_relaunched_for_its_next_match(
    host: BotHost, tmp_path: Path, tag: str
) -> None:
    specs = [
        launched("victim", "bots.random", tag=tag),
        # Plays its first match cleanly, crashes at the first Keep of its second.
        launched("faulty", "tests.bots.faulty_bot", "--fault", "crash", "--at", "1", "--match", "2", tag=tag),
    ]
    first = play(host, specs, tmp_path, "m1", seed=1)
    assert [seat.faults for seat in first.seats] == [[], []]
    kept = sorted(bots_with(tag))
    assert len(kept) == 2, "both bots stay up between matches"

    second = play(host, specs, tmp_path, "m2", seed=2)
    victim, faulty = second.seats
    assert victim.faults == []
    assert faulty.forfeited and faulty.forfeit_reason == "bot process exited with status 3"
    assert faulty.faults[-1] == "forfeited: bot process exited with status 3"
    resimulate(second)
    # The second match was played by the processes of the first: no new log file.
    assert logs(tmp_path) == ["m1.seat0.victim.log", "m1.seat1.faulty.log"]
    assert "[smtourney] match m2, seat 1\n" in (tmp_path / "m1.seat1.faulty.log").read_text()

    third = play(host, specs, tmp_path, "m3", seed=3)
    assert [seat.faults for seat in third.seats] == [[], []], "the new process starts clean"
    assert logs(tmp_path) == ["m1.seat0.victim.log", "m1.seat1.faulty.log", "m3.seat1.faulty.log"]
    relaunch = (tmp_path / "m3.seat1.faulty.log").read_text().splitlines()[0]
    assert re.fullmatch(
        r"\[smtourney\] match m3, seat 1: a new process, as the last one was stopped after match m2: "
        r"the process exited with status 3",
        relaunch,
    ), relaunch
    now = sorted(bots_with(tag))
    assert len(now) == 2 and kept[0] in now and kept[1] not in now  # the victim's process is the same

    host.close()
    assert processes_with(tag) == []


def test_self_play_seats_get_a_process_each_and_keep_it(host: BotHost, tmp_path: Path, tag: str) -> None:
    twin = launched("twin", "bots.random", tag=tag)
    for match in ("m1", "m2"):
        record = play(host, [twin, twin], tmp_path, match, seed=int(match[1]))
        assert all(seat.faults == [] for seat in record.seats)
    assert logs(tmp_path) == ["m1.seat0.twin.log", "m1.seat1.twin.log"]
    assert len(bots_with(tag)) == 2


def test_a_process_never_plays_the_same_seed_twice(host: BotHost, tmp_path: Path, tag: str) -> None:
    """Rotations of a duplicate table share their chance outcomes: a process must not know them ahead."""
    specs = [launched("a", "bots.random", tag=tag), launched("b", "bots.random", tag=tag)]
    play(host, specs, tmp_path, "m1", seed=7)
    play(host, specs[::-1], tmp_path, "m2", seed=7)
    play(host, specs, tmp_path, "m3", seed=8)  # a new seed: the processes of m2 go on
    assert logs(tmp_path) == ["m1.seat0.a.log", "m1.seat1.b.log", "m2.seat0.b.log", "m2.seat1.a.log"]
    relaunched = (tmp_path / "m2.seat1.a.log").read_text()
    assert "already played a match with this match's chance outcomes" in relaunched


def test_fresh_process_launches_every_match(host: BotHost, tmp_path: Path, tag: str) -> None:
    fresh = replace(launched("fresh", "bots.random", tag=tag), fresh_process=True)
    kept = launched("kept", "bots.random", tag=tag)
    play(host, [fresh, kept], tmp_path, "m1", seed=1)
    assert len(bots_with(tag)) == 1, "the fresh bot was stopped after its match"
    play(host, [fresh, kept], tmp_path, "m2", seed=2)
    assert logs(tmp_path) == ["m1.seat0.fresh.log", "m1.seat1.kept.log", "m2.seat0.fresh.log"]


def _cpu_limit(pid: int) -> tuple[str, str]:
    """The soft and hard RLIMIT_CPU of a process, as /proc shows them."""
    limits = Path(f"/proc/{pid}/limits").read_text().splitlines()
    soft, hard = next(line for line in limits if line.startswith("Max cpu time")).split()[3:5]
    return soft, hard


def _own_cpu(pid: int) -> float:
    """A process's own CPU time (user + system), what its RLIMIT_CPU counts."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_the_cpu_limit_counts_the_cpu_of_this_match(host: BotHost, tmp_path: Path, tag: str) -> None:
    """At each match's first step, every process of a kept bot (the sandbox's too) has its soft limit
    5 s beyond the CPU it had used before, and the bot's whole tree is what the watch counts."""
    specs = [launched("a", "bots.random", tag=tag), launched("b", "bots.random", tag=tag)]
    # (match, bot) -> the bot's CPU, and each of its processes' own CPU, soft and hard limit
    seen: dict[tuple[str, int], tuple[float, list[tuple[float, str, str]]]] = {}

    def look(match: str) -> StepCallback:
        def at_step(state: object, step: object) -> None:
            for pid in bots_with(tag):
                used = cpu_seconds(pid)
                if (match, pid) not in seen and used is not None:
                    members = [(_own_cpu(m), *_cpu_limit(m)) for m in process_tree(pid)]
                    seen[match, pid] = (used, members)

        return at_step

    config = RefereeConfig(TimeControl(2000, 5000), startup_timeout_s=30.0, limits=Limits(None, 5))
    for match, seed in (("m1", 1), ("m2", 2)):
        run_match(
            get_game("saint_malo"),
            specs,
            match_id=match,
            seed=seed,
            config=config,
            log_dir=tmp_path,
            on_step=look(match),
            host=host,
        )
    assert len(seen) == 4 and len({pid for _, pid in seen}) == 2, "the same two processes played both"
    for used, members in seen.values():
        assert len(members) > 1, "a sandboxed bot runs below its guard"
        assert used >= sum(own for own, _, _ in members)
        for own, soft, hard in members:
            assert hard == "unlimited"
            assert math.ceil(own) - 1 <= int(soft) - 5 <= math.ceil(own), (own, soft)


@pytest.mark.parametrize("sandboxed", [False, True])
def test_the_cpu_watch_kills_a_bot_over_its_cap(sandboxed: bool, tmp_path: Path) -> None:
    """The cap is on the bot's whole tree: a sandboxed bot spins several processes below its guard."""
    spin = BotProcess(
        [sys.executable, "-c", "while True: pass"],
        tmp_path / "spin.log",
        limits=UNLIMITED,
        sandboxed=sandboxed,
    )
    with spin:
        assert spin.process is not None
        watch = _CpuWatch({spin.process.pid: 0.3})
        try:
            assert spin.wait_exit(30) == -signal.SIGKILL
        finally:
            watch.stop()


@pytest.mark.parametrize("fault", ["sleep", "illegal", "stale", "garbage", "wrong_kind"])
def test_a_reused_bot_s_faults_are_recorded_as_a_new_bot_s_and_it_is_replaced(
    fault: str, host: BotHost, tmp_path: Path, tag: str
) -> None:
    """The fault policy holds for a process kept from an earlier match; the next match gets a new one."""
    strike_pattern, forfeit_pattern = CASES[fault]
    specs = [
        launched("victim", "bots.random", tag=tag),
        launched("faulty", "tests.bots.faulty_bot", "--fault", fault, "--at", "2", "--match", "2", tag=tag),
    ]
    config = RefereeConfig(TimeControl(300, 300), startup_timeout_s=30.0, limits=UNLIMITED)
    plugin = get_game("saint_malo")
    records = [
        run_match(plugin, specs, match_id=m, seed=seed, config=config, log_dir=tmp_path / m, host=host)
        for m, seed in (("m1", 3), ("m2", 4), ("m3", 5))
    ]
    assert [seat.faults for seat in records[0].seats] == [[], []]
    victim, faulty = records[1].seats
    assert victim.faults == [] and faulty.forfeited and faulty.rank == 2
    assert re.search(forfeit_pattern, faulty.forfeit_reason or ""), faulty.forfeit_reason
    assert all(re.search(strike_pattern, f) for f in faulty.faults[:-1]), faulty.faults
    resimulate(records[1])
    assert [seat.faults for seat in records[2].seats] == [[], []], "the new process starts clean"
    # The faulty bot was launched for m1 and again for m3; the victim only for m1.
    assert logs(tmp_path / "m1") == ["m1.seat0.victim.log", "m1.seat1.faulty.log"]
    assert not (tmp_path / "m2").exists()
    assert logs(tmp_path / "m3") == ["m3.seat1.faulty.log"]
