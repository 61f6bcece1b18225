"""The pre-flight check: every launched bot is started once, all at the same time, and must pass its
health check and ``Hello`` for the game before anything is played or written.

A bot that crashes at import or names a missing program would otherwise be forfeited in every match
of a tournament that then exits 0; finding it before the first match costs one start-up per entrant.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sdk.games.plugin import GamePlugin

from .display import visible
from .launcher import OUTPUT_QUOTE, Limits
from .seats import SeatSpec, log_path, open_seats

#: How many of the last lines of a failing bot's log its one line quotes.
LOG_LINES = 3
#: The log's tail is read from at most this many bytes at its end.
LOG_TAIL_BYTES = 8192


@dataclass(frozen=True, slots=True)
class PreflightFailure:
    """One launched bot that did not come up, why, and the end of what it printed."""

    name: str
    reason: str
    log_tail: tuple[str, ...]

    def line(self) -> str:
        """One line: the entrant, why it failed, and the last lines of its log (unless the reason, a
        failed start-up's, quotes them already)."""
        text = f"entrant {self.name!r} failed the pre-flight check: {self.reason}"
        if self.log_tail and OUTPUT_QUOTE not in self.reason:
            text += "; last lines of its log: " + " | ".join(self.log_tail)
        return visible(text)


def preflight(
    plugin: GamePlugin, specs: Sequence[SeatSpec], *, limits: Limits, startup_timeout_s: float
) -> list[PreflightFailure]:
    """Start every launched spec once, in parallel; the ones that fail health or ``Hello``, in order.

    Address seats are not checked (a remote bot may be brought up later). Logs go to a temporary
    folder removed afterwards, so a check writes nothing that stays.
    """
    launched = [spec for spec in specs if spec.command is not None]
    if not launched:
        return []
    with tempfile.TemporaryDirectory(prefix="smtourney-preflight-") as folder:
        log_dir = Path(folder)
        with open_seats(
            plugin,
            launched,
            log_dir=log_dir,
            match_id="preflight",
            limits=limits,
            startup_timeout_s=startup_timeout_s,
            bank_ms=0,
        ) as seats:
            failed = [(seat, seat.record.forfeit_reason or "") for seat in seats if seat.record.forfeited]
        # Read once every bot is stopped, so everything it printed is in the file.
        return [
            PreflightFailure(seat.spec.name, reason, _tail(log_path(log_dir, "preflight", seat)))
            for seat, reason in failed
        ]


def _tail(path: Path) -> tuple[str, ...]:
    """The last non-blank lines of a log, or nothing if it was never written."""
    try:
        with path.open("rb") as log:
            log.seek(0, 2)
            log.seek(max(0, log.tell() - LOG_TAIL_BYTES))
            text = log.read().decode("utf-8", errors="replace")
    except OSError:
        return ()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return tuple(lines[-LOG_LINES:])
