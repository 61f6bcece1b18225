"""How each entrant's bot behaved at the table: decision times, time bank used, faults by kind.

Read from what the store keeps of each seat beside its result (its clock use and its faults), never
from the replays. These are measured real elapsed times, so unlike every other column of the
standings they differ from run to run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from server.store.repository import SeatConduct

DIGITS = 3
#: A strike's reason starts with one of these (server/referee.py); its kind is the snake-case form.
STRIKE_KINDS = (
    "timeout",
    "unreachable",
    "reply too large",
    "error status",
    "empty reply",
    "stale reply",
    "malformed reply",
    "illegal action",
)
#: Every kind :func:`fault_kind` gives, in the order the diagnostics list them.
FAULT_KINDS = (*(kind.replace(" ", "_") for kind in STRIKE_KINDS), "forfeit", "end_match_failed", "other")
_STRIKE = re.compile(r"decision \d+ \([^)]*\): (?P<reason>.*)", re.DOTALL)


def fault_kind(fault: str) -> str:
    """The kind of a seat's fault line: a strike's kind, ``forfeit`` or ``end_match_failed``."""
    if fault.startswith("forfeited: "):
        return "forfeit"
    if fault.startswith("EndMatch failed"):
        return "end_match_failed"
    strike = _STRIKE.fullmatch(fault)
    if strike is not None:
        reason = strike.group("reason")
        for kind in STRIKE_KINDS:
            if reason.startswith(kind):
                return kind.replace(" ", "_")
    return "other"


@dataclass
class Conduct:
    """One entrant's figures over its matches."""

    latencies_us: list[npt.NDArray[np.int64]] = field(default_factory=list)  # one array per match
    bank_used_ms: list[float] = field(default_factory=list)  # one per match
    faults: dict[str, int] = field(default_factory=dict)

    @property
    def latencies_ms(self) -> npt.NDArray[np.float64]:
        """Every answer's time, in milliseconds."""
        if not self.latencies_us:
            return np.empty(0)
        return np.concatenate(self.latencies_us) / 1000

    def to_json(self) -> dict[str, object]:
        """``decision_ms`` (median, p99, max of the bot's answers), ``bank_used_ms`` (mean and max
        per match) and ``faults`` (count by kind, kinds sorted)."""
        return {
            "decision_ms": _summary(self.latencies_ms, {"median": 50.0, "p99": 99.0, "max": 100.0}),
            "bank_used_ms": _summary(self.bank_used_ms, {"mean": None, "max": 100.0}),
            "faults": dict(sorted(self.faults.items())),
        }


def _summary(
    values: Sequence[float] | npt.NDArray[np.float64], figures: dict[str, float | None]
) -> dict[str, float | None]:
    """Percentiles (linear interpolation) or, for ``None``, the mean; ``None`` when nothing was measured."""
    if len(values) == 0:
        return dict.fromkeys(figures)
    data = np.asarray(values)
    return {
        name: round(float(data.mean() if q is None else np.percentile(data, q)), DIGITS)
        for name, q in figures.items()
    }


def conduct(entrants: int, seats: Iterable[SeatConduct]) -> list[Conduct]:
    """Each of the ``entrants``' conduct over ``seats`` (each match's seats, in schedule order), in
    entrant order."""
    figures = [Conduct() for _ in range(entrants)]
    for seat in seats:
        mine = figures[seat.entrant]
        mine.latencies_us.append(seat.latencies_us)
        mine.bank_used_ms.append(seat.bank_used_ms)
        for fault in seat.faults:
            kind = fault_kind(fault)
            mine.faults[kind] = mine.faults.get(kind, 0) + 1
    return figures
