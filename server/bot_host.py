"""Launched bots kept up between matches, so a tournament spends its time playing, not starting bots.

A :class:`BotHost` holds one process per entrant and per place of that entrant at a table
(a bot playing itself gets one process per seat). Each match takes the processes it needs
from the host, or launches those it lacks, all at once; the referee's ``StartMatch`` and
``EndMatch`` mark where one match ends and the next begins. After a match a process goes
back to the host only if the match recorded no fault for its seat and the process still
runs; otherwise it is stopped and its entrant's next match starts a new one, so one bad
match never poisons the next. A process never plays two matches with the same seed (the
rotations of a ``duplicate`` table): it would know the chance outcomes in advance.

Limits hold per match: the address-space limit is the process's own (set at launch), and
the CPU-time limit counts only the CPU the bot uses during the match, read from ``/proc``
over the launched process and everything it started (a sandboxed bot runs a few processes
below the launched one). At the start of each match every process's soft ``RLIMIT_CPU`` is
moved to the time it used so far plus the limit (the kernel sends SIGXCPU there, as for a
fresh process), and a watch kills the bot a second after the whole tree passes the limit,
which is where a fresh process's hard limit lies.

The owner of the host may end entrants' kept processes at any time, from another thread
(:meth:`BotHost.keep_only`): a ladder ends those of the bots that left play while the worker
plays another match, so a retired bot does not keep its memory until it would play again.
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
import shutil
import signal
import subprocess
import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sdk.games.plugin import GamePlugin

from .client import BotConnection
from .launcher import BotProcess, Limits
from .sandbox import BOT_USER
from .seats import (
    Seat,
    SeatSpec,
    connect_all,
    launch,
    log_path,
    new_seats,
    note_output,
    release,
    stop_together,
)

__all__ = ["BotHost", "cpu_seconds", "process_tree"]

CPU_WATCH_INTERVAL_S = 0.25
_TICKS_PER_S = os.sysconf("SC_CLK_TCK")

Key = tuple[str, int]
"""An entrant's name and its place among that entrant's seats at the table (0 unless self-play)."""


@dataclass
class _Kept:
    """A bot process between two matches, with what its next match needs to reuse it."""

    spec: SeatSpec
    game: str
    limits: Limits
    """What it was launched with (no CPU limit: the host applies that per match)."""
    process: BotProcess
    client: BotConnection
    bot: str
    seeds: set[int] = field(default_factory=set)
    last_match: str = ""


@dataclass(frozen=True, slots=True)
class _Hosted:
    """A seat of the match being played whose process is the host's, and the seeds it has seen."""

    seat: Seat
    key: Key
    seeds: set[int]


def _stat(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first); None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None


def _tree_stats(pid: int) -> dict[int, list[bytes]]:
    """``pid`` and every live process below it (a sandbox's processes included), ``pid`` first, with
    their ``/proc/PID/stat`` fields, from one pass over ``/proc``; empty once ``pid`` is gone."""
    stats: dict[int, list[bytes]] = {}
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            stats[int(entry)] = fields
            children.setdefault(int(fields[1]), []).append(int(entry))
    if pid not in stats:
        return {}
    tree: dict[int, list[bytes]] = {}
    todo = [pid]
    while todo:
        member = todo.pop(0)
        tree[member] = stats[member]
        todo.extend(children.get(member, ()))
    return tree


def process_tree(pid: int) -> list[int]:
    """``pid`` and every live process below it (a sandbox's processes included), ``pid`` first."""
    return list(_tree_stats(pid))


def _own_seconds(fields: list[bytes]) -> float:
    """A process's own CPU time (user + system): what its ``RLIMIT_CPU`` counts."""
    return (int(fields[11]) + int(fields[12])) / _TICKS_PER_S


def cpu_seconds(pid: int) -> float | None:
    """CPU time the bot launched as ``pid`` has used so far: that process, everything it started and
    still runs, and the children they have reaped (from ``/proc``); None once ``pid`` is gone."""
    tree = _tree_stats(pid)
    return _tree_seconds(tree) if tree else None


def _tree_seconds(tree: Mapping[int, list[bytes]]) -> float:
    """The CPU time of the processes of ``tree`` and of the children they have reaped."""
    return sum(_own_seconds(f) + (int(f[13]) + int(f[14])) / _TICKS_PER_S for f in tree.values())


class _CpuWatch:
    """Kills a bot's process group once its CPU time passes a cap (RLIMIT_CPU's hard limit, per match)."""

    def __init__(self, caps: Mapping[int, float]) -> None:
        self._caps = dict(caps)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cpu-watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(CPU_WATCH_INTERVAL_S):
            for pid, cap in self._caps.items():
                used = cpu_seconds(pid)
                if used is not None and used > cap:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(pid, signal.SIGKILL)

    def stop(self) -> None:
        """Stop watching; returns once the watch can no longer signal anything."""
        self._stop.set()
        self._thread.join()


class BotHost:
    """Bot processes kept between the matches one worker plays; :meth:`close` stops them all."""

    def __init__(self) -> None:
        self._kept: dict[Key, _Kept] = {}
        self._dropped: dict[Key, str] = {}  # why the last process of a key was stopped
        self._lock = threading.Lock()  # over both: keep_only may come from another thread

    @contextlib.contextmanager
    def seats(
        self,
        plugin: GamePlugin,
        specs: Sequence[SeatSpec],
        *,
        log_dir: Path,
        match_id: str,
        seed: int,
        limits: Limits,
        startup_timeout_s: float,
        bank_ms: int,
    ) -> Iterator[list[Seat]]:
        """Like :func:`server.seats.open_seats`, with processes taken from and given back to the host."""
        seats = new_seats(specs, bank_ms)
        keys = _keys(specs)
        hosted: list[_Hosted] = []  # seats whose process may return to the host
        watch: _CpuWatch | None = None
        replaced: list[BotProcess] = []  # kept processes this match cannot use
        played = False
        try:
            for seat, key in zip(seats, keys, strict=True):
                if seat.spec.command is None or not seat.active:
                    continue
                log = log_path(log_dir, match_id, seat)
                if seat.spec.fresh_process:
                    launch(seat, log, limits)
                else:
                    hosted.append(self._take(seat, key, log, plugin.name, seed, limits, match_id, replaced))
            for process in replaced:
                process.terminate()  # they wind down during the match, and are reaped after it
            connect_all(plugin, seats, startup_timeout_s)
            if limits.cpu_seconds is not None:
                watch = _CpuWatch(_cpu_budget([h.seat for h in hosted], limits.cpu_seconds))
            yield seats
            played = True
        finally:
            if watch is not None:
                watch.stop()
            stop_together(replaced)
            self._take_back(seats, hosted, plugin.name, seed, limits, match_id, played)

    def _take(
        self,
        seat: Seat,
        key: Key,
        log: Path,
        game: str,
        seed: int,
        limits: Limits,
        match_id: str,
        replaced: list[BotProcess],
    ) -> _Hosted:
        """Give ``seat`` its kept process, or launch one (a kept one it cannot use goes to ``replaced``)."""
        with self._lock:
            kept = self._kept.pop(key, None)
            dropped = self._dropped.pop(key, None)
        where = f"match {match_id}, seat {seat.record.seat}"
        if kept is None:
            _note(
                log,
                f"{where}: a new process"
                + (f", as the last one was stopped after {dropped}" if dropped else ""),
            )
        else:
            why = _why_not_reuse(kept, seat.spec, game, seed, limits)
            if why is None:
                seat.process, seat.client, seat.record.bot = kept.process, kept.client, kept.bot
                if kept.process.output is not None:
                    kept.process.output.new_period()
                _note(kept.process.log_path, where)
                return _Hosted(seat, key, kept.seeds)
            kept.client.close()
            replaced.append(kept.process)
            _note(kept.process.log_path, f"stopped before match {match_id}: {why}")
            _note(log, f"{where}: a new process, as {why}")
        # The CPU limit is the host's to apply per match; the memory limit stays the process's.
        launch(seat, log, launch_limits(limits))
        return _Hosted(seat, key, set())

    def _take_back(
        self,
        seats: list[Seat],
        hosted: list[_Hosted],
        game: str,
        seed: int,
        limits: Limits,
        match_id: str,
        played: bool,
    ) -> None:
        """Keep every hosted bot that played cleanly; close and stop every other seat's bot."""
        note_output(seats)
        kept_seats: set[int] = set()
        for taken in hosted:
            seat, key = taken.seat, taken.key
            process, client = seat.process, seat.client
            if not played or process is None or client is None:
                continue
            why = _why_not_keep(seat, process)
            if why is not None:
                with self._lock:
                    self._dropped[key] = f"match {match_id}: {why}"
                _note(process.log_path, f"stopped after match {match_id}: {why}")
                continue
            kept = _Kept(
                seat.spec,
                game,
                launch_limits(limits),
                process,
                client,
                seat.record.bot,
                taken.seeds | {seed},
                match_id,
            )
            with self._lock:
                self._kept[key] = kept
            kept_seats.add(seat.record.seat)
        release([seat for seat in seats if seat.record.seat not in kept_seats])

    def keep_only(self, entrants: Collection[str]) -> None:
        """Stop the kept processes of every entrant not named (those playing a match now are not
        kept: they go back to the host after it, and the next call stops them)."""
        with self._lock:
            leaving = [key for key in self._kept if key[0] not in entrants]
            gone = [self._kept.pop(key) for key in leaving]
            for key in leaving:
                self._dropped[key] = "its entrant left play"
        for bot in gone:
            bot.client.close()
            _note(bot.process.log_path, f"stopped after match {bot.last_match}: its entrant left play")
        stop_together([bot.process for bot in gone])

    def close(self) -> None:
        """Stop every kept bot."""
        with self._lock:
            kept, self._kept = list(self._kept.values()), {}
        for bot in kept:
            bot.client.close()
        stop_together([bot.process for bot in kept])


def _keys(specs: Sequence[SeatSpec]) -> list[Key]:
    """Each seat's key: its entrant, and how many seats of the same entrant come before it."""
    seen: dict[str, int] = {}
    keys = []
    for spec in specs:
        keys.append((spec.name, seen.get(spec.name, 0)))
        seen[spec.name] = seen.get(spec.name, 0) + 1
    return keys


def _why_not_reuse(kept: _Kept, spec: SeatSpec, game: str, seed: int, limits: Limits) -> str | None:
    """Why the kept process cannot play this match (None: it can)."""
    code = kept.process.exit_code()
    if code is not None:
        return f"its process exited with status {code} after match {kept.last_match}"
    if kept.spec != spec or kept.game != game or kept.limits != launch_limits(limits):
        return "its command, environment, sandbox, game or memory limits changed"
    if seed in kept.seeds:
        return "its process already played a match with this match's chance outcomes"
    return None


def _why_not_keep(seat: Seat, process: BotProcess) -> str | None:
    """Why a bot must not play another match in its process (None: it may)."""
    code = process.exit_code()
    if code is not None:
        return f"the process exited with status {code}"
    if seat.record.faults:
        return f"its seat recorded {len(seat.record.faults)} fault(s), the first: {seat.record.faults[0]}"
    return None


def _cpu_budget(seats: Sequence[Seat], limit_s: int) -> dict[int, float]:
    """Move the soft CPU limit of each bot's processes to ``limit_s`` beyond what each has used;
    the caps on each bot's whole tree to watch."""
    caps: dict[int, float] = {}
    for seat in seats:
        pid = None if seat.process is None or seat.process.process is None else seat.process.process.pid
        tree = {} if pid is None else _tree_stats(pid)
        if pid is None or not tree:
            continue
        used = _tree_seconds(tree)
        refused: list[tuple[int, int]] = []
        for member, fields in tree.items():
            soft = math.ceil(_own_seconds(fields)) + limit_s
            try:
                resource.prlimit(member, resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))
            except PermissionError:
                refused.append((member, soft))
            except ProcessLookupError:
                pass
        if refused:
            _set_soft_as_bot(refused)
        caps[pid] = math.ceil(used) + limit_s + 1
    return caps


def _set_soft_as_bot(limits: Sequence[tuple[int, int]]) -> None:
    """Set the soft CPU limits of a sandboxed bot's own processes from a process of the bot's user:
    root without CAP_SYS_RESOURCE (a container's usual root) may not set another user's limits.
    util-linux's ``prlimit`` does it (the organiser's Python may lie where that user cannot go)."""
    program = shutil.which("prlimit")
    if program is None:
        return  # the watch still ends the bot at its cap
    user, group = BOT_USER
    for pid, soft in limits:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [program, f"--pid={pid}", f"--cpu={soft}:unlimited"],
                user=user,
                group=group,
                extra_groups=[],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=10,
                check=False,
            )


def launch_limits(limits: Limits) -> Limits:
    """The limits a kept process is launched with: all but the CPU limit, which the host applies per match."""
    return replace(limits, cpu_seconds=None)


def _note(log: Path, line: Any) -> None:
    """Add a line of the host's own to a bot's log, so its output can be told apart by match."""
    with contextlib.suppress(OSError), log.open("a", encoding="utf-8") as out:
        out.write(f"[smtourney] {line}\n")
