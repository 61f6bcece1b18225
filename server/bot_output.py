"""A launched bot's output, written to its log up to a cap per period (a match, a check), the rest
read and dropped, and counted: a bot printing without end fills no disk, and its owner is told.

The bot writes into a pipe rather than into its log file: only the launcher decides what reaches
the disk. A thread reads the pipe until every process of the bot has closed it (the bot's death).
A process kept between matches writes every match into the one log it was launched with: that
log is emptied at the start of a match once it holds ``PROCESS_LOG_CAP_BYTES`` less one match's
cap, so it never outgrows the cap however long the process lives, and always holds the newest match.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import IO

__all__ = ["OUTPUT_CAP_BYTES", "PROCESS_LOG_CAP_BYTES", "CappedOutput", "output_fault"]

OUTPUT_CAP_BYTES = 1024 * 1024
"""Bytes of a bot's output written to its log per match (or per check); the rest is dropped."""
PROCESS_LOG_CAP_BYTES = 4 * OUTPUT_CAP_BYTES
"""Largest log of one launched process, over all the matches it plays (its host's notes aside)."""
_CHUNK = 1024 * 1024


def output_fault(cap: int, dropped: int) -> str:
    """The fault recorded on a seat (or check) whose bot wrote more than ``cap`` bytes."""
    return f"output over {cap:,} bytes: {dropped:,} bytes dropped"


_EMPTIED = (
    f"[smtourney] earlier matches' output removed: a process's log is kept under "
    f"{PROCESS_LOG_CAP_BYTES:,} bytes\n"
).encode()


class CappedOutput:
    """Copies the pipe ``read_fd`` into ``log``: at most ``cap`` bytes per period, the rest counted."""

    def __init__(self, read_fd: int, log: IO[bytes], cap: int = OUTPUT_CAP_BYTES) -> None:
        self.cap = cap
        self._fd, self._log = read_fd, log
        self._lock = threading.Lock()
        self._written = 0
        self._dropped = 0
        self._thread = threading.Thread(target=self._copy, name="bot-output", daemon=True)
        self._thread.start()

    def _copy(self) -> None:
        """Read until the bot's last process closes the pipe, then close it: the thread alone owns
        the descriptor, so its number is never reused under a read still under way."""
        try:
            with contextlib.suppress(OSError):
                while data := os.read(self._fd, _CHUNK):
                    self._keep(data)
        finally:
            os.close(self._fd)

    def _keep(self, data: bytes) -> None:
        with self._lock:
            room = max(0, self.cap - self._written)
            kept = data[:room]
            self._written += len(kept)
            self._dropped += len(data) - len(kept)
        if kept:
            with contextlib.suppress(ValueError):  # the log closed under a straggler: drop it
                self._log.write(kept)
                self._log.flush()

    @property
    def dropped(self) -> int:
        """Bytes dropped in this period so far."""
        with self._lock:
            return self._dropped

    def new_period(self) -> None:
        """Start a new period (the next match of a kept process): the cap counts afresh, and the
        log is emptied first if this match could take it over ``PROCESS_LOG_CAP_BYTES``, or if it
        was deleted (pruned) while the process kept writing it, where nobody could read it."""
        with self._lock:
            self._written = self._dropped = 0
            with contextlib.suppress(OSError, ValueError):  # a log closed under a straggler
                self._log.flush()
                status = os.fstat(self._log.fileno())
                if status.st_size > PROCESS_LOG_CAP_BYTES - self.cap or status.st_nlink == 0:
                    os.ftruncate(self._log.fileno(), 0)
                    self._log.write(_EMPTIED)
                    self._log.flush()

    def drain(self, timeout_s: float = 2.0) -> None:
        """Once the bot is gone: wait until what is left in the pipe is copied (a straggler still
        holding the pipe is read, and dropped, until it dies)."""
        self._thread.join(timeout_s)
