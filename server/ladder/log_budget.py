"""The ladder's log folder kept within its budget: each bot's newest logs, and a total, oldest first.

Each match's output is capped per seat (:mod:`server.bot_output`), yet a ladder plays without end:
its logs would fill the disk. Every log file of a match seat names its bot
(``<match>.seat<N>.<bot>.log``, :func:`server.seats.log_path`); each bot keeps its newest
``per_bot_matches`` files within ``per_bot_bytes``, and the whole folder stays within ``total_bytes``
by deleting the oldest logs and check folders first. A file is emptied before it is deleted, so its
disk space comes back even while a bot process still holds it open.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from server.tournament.executors import EXECUTOR_LOGS

__all__ = ["KEPT_OPEN", "LogBudget", "LogPruner", "Pruned", "SeatLog", "prune", "seat_log"]

KEPT_OPEN = frozenset(EXECUTOR_LOGS.values())
"""Files the server keeps open for as long as it runs: counted, never deleted."""
PRUNE_INTERVAL_S = 5.0
"""Longest wait between two prunes (a finished match asks for one at once)."""
_SEAT_LOG = re.compile(r"^(?P<match>.+)\.seat(?P<seat>\d+)\.(?P<bot>[^/]+)\.log$")


@dataclass(frozen=True, slots=True)
class LogBudget:
    """What the log folder may hold: per bot, its newest ``per_bot_matches`` logs within
    ``per_bot_bytes``; in all, ``total_bytes``."""

    per_bot_matches: int
    per_bot_bytes: int
    total_bytes: int


@dataclass(frozen=True, slots=True)
class Pruned:
    """What a prune deleted, and what the folder holds after it."""

    files: int
    freed_bytes: int
    kept_bytes: int


@dataclass(frozen=True, slots=True)
class _Unit:
    """A file, or a check's folder, deleted as a whole."""

    path: Path
    size: int
    mtime: float
    bot: str | None  # the bot of a match seat's log


@dataclass(frozen=True, slots=True)
class SeatLog:
    """A match seat's log file, as its name tells it."""

    match_id: str
    seat: int
    bot: str


def seat_log(name: str) -> SeatLog | None:
    """The match, seat and bot (as :func:`server.seats.file_safe_name` writes it) a log file names."""
    found = _SEAT_LOG.match(name)
    if found is None or not found["seat"].isascii():
        return None
    return SeatLog(found["match"], int(found["seat"]), found["bot"])


def prune(log_dir: Path, budget: LogBudget) -> Pruned:
    """Delete the logs over ``budget`` in ``log_dir``, oldest first; what is kept is the newest."""
    units = list(_units(log_dir))
    doomed: list[_Unit] = []
    by_bot: dict[str, list[_Unit]] = {}
    for unit in units:
        if unit.bot is not None:
            by_bot.setdefault(unit.bot, []).append(unit)
    for logs in by_bot.values():
        held = 0
        for rank, unit in enumerate(sorted(logs, key=lambda u: u.mtime, reverse=True)):
            held += unit.size
            if rank >= budget.per_bot_matches or held > budget.per_bot_bytes:
                doomed.append(unit)
    gone = {id(unit) for unit in doomed}
    left = [unit for unit in units if id(unit) not in gone]
    total = sum(unit.size for unit in left) + _kept_open_bytes(log_dir)
    for unit in sorted(left, key=lambda u: u.mtime):
        if total <= budget.total_bytes:
            break
        doomed.append(unit)
        total -= unit.size
    for unit in doomed:
        _delete(unit.path)
    return Pruned(len(doomed), sum(unit.size for unit in doomed), total)


def _units(log_dir: Path) -> Iterator[_Unit]:
    with contextlib.suppress(FileNotFoundError), os.scandir(log_dir) as entries:
        for entry in entries:
            with contextlib.suppress(FileNotFoundError):
                if entry.is_file(follow_symlinks=False) and entry.name not in KEPT_OPEN:
                    status = entry.stat(follow_symlinks=False)
                    seat = seat_log(entry.name)
                    yield _Unit(
                        Path(entry.path), status.st_size, status.st_mtime, None if seat is None else seat.bot
                    )
                elif entry.is_dir(follow_symlinks=False) and entry.name == "checks":
                    yield from _check_folders(Path(entry.path))


def _check_folders(checks: Path) -> Iterator[_Unit]:
    """Each bot's check folder, as one unit as old as its newest file."""
    with os.scandir(checks) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                sizes, newest = 0, 0.0
                for file in _files(Path(entry.path)):
                    with contextlib.suppress(FileNotFoundError):
                        status = file.stat(follow_symlinks=False)
                        sizes, newest = sizes + status.st_size, max(newest, status.st_mtime)
                yield _Unit(Path(entry.path), sizes, newest, None)


def _files(folder: Path) -> Iterator[Path]:
    for root, _, names in os.walk(folder):
        for name in names:
            yield Path(root, name)


def _kept_open_bytes(log_dir: Path) -> int:
    total = 0
    for name in KEPT_OPEN:
        with contextlib.suppress(OSError):
            total += (log_dir / name).stat().st_size
    return total


def _delete(path: Path) -> None:
    """Empty, then remove: the space comes back even if a process still has the file open."""
    targets = list(_files(path)) if path.is_dir() else [path]
    for target in targets:
        with contextlib.suppress(OSError):
            os.truncate(target, 0)
        with contextlib.suppress(OSError):
            target.unlink()
    if path.is_dir():
        for root, folders, _ in os.walk(path, topdown=False):
            for folder in folders:
                with contextlib.suppress(OSError):
                    Path(root, folder).rmdir()
        with contextlib.suppress(OSError):
            path.rmdir()


class LogPruner:
    """Prunes a log folder in a thread of its own: after each finished match (:meth:`wake`) and
    every ``PRUNE_INTERVAL_S``, so the ladder's loop never waits for the disk."""

    def __init__(self, log_dir: Path, budget: LogBudget, report: Callable[[str], None]) -> None:
        self._log_dir, self._budget, self._report = log_dir, budget, report
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ladder-logs", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        """Stop pruning, after a last prune: what the stopped matches wrote is within budget too."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join()
        self._prune()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._prune()
            self._wake.wait(PRUNE_INTERVAL_S)
            self._wake.clear()

    def _prune(self) -> None:
        try:
            prune(self._log_dir, self._budget)
        except OSError as exc:
            self._report(f"logs in {self._log_dir} could not be pruned: {exc}")
