"""How each entrant's bot behaved at the table: decision times, time bank used, faults by kind.

Read from match records (the replay's latencies and the seats' faults). These are measured
real elapsed times, so unlike every other column of the standings they differ from run to run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from server.record import MatchRecord, StepRecord

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

    latencies_ms: list[float] = field(default_factory=list)
    bank_used_ms: list[float] = field(default_factory=list)  # one per match
    faults: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """``decision_ms`` (median, p99, max of the bot's answers), ``bank_used_ms`` (mean and max
        per match) and ``faults`` (count by kind, kinds sorted)."""
        return {
            "decision_ms": _summary(self.latencies_ms, {"median": 50.0, "p99": 99.0, "max": 100.0}),
            "bank_used_ms": _summary(self.bank_used_ms, {"mean": None, "max": 100.0}),
            "faults": dict(sorted(self.faults.items())),
        }


def _summary(values: Sequence[float], figures: dict[str, float | None]) -> dict[str, float | None]:
    """Percentiles (linear interpolation) or, for ``None``, the mean; ``None`` when nothing was measured."""
    if not values:
        return dict.fromkeys(figures)
    data = np.asarray(values)
    return {
        name: round(float(data.mean() if q is None else np.percentile(data, q)), DIGITS)
        for name, q in figures.items()
    }


def conduct(names: Sequence[str], records: Iterable[MatchRecord]) -> list[Conduct]:
    """Each entrant's conduct, in entrant order; a seat belongs to the entrant of its name."""
    position = {name: i for i, name in enumerate(names)}
    figures = [Conduct() for _ in names]
    for record in records:
        decision_ms = record.time_control["decision_ms"]
        bank_ms = record.time_control["bank_ms"]
        for seat in record.seats:
            mine = figures[position[seat.name]]
            steps = [s for s in record.steps if s.seat == seat.seat and s.latency_us is not None]
            mine.latencies_ms.extend(s.latency_us / 1000 for s in steps if s.latency_us is not None)
            mine.bank_used_ms.append(bank_ms - bank_left(steps, decision_ms, bank_ms))
            for fault in seat.faults:
                kind = fault_kind(fault)
                mine.faults[kind] = mine.faults.get(kind, 0) + 1
    return figures


def bank_left(steps: Iterable[StepRecord], decision_ms: int, bank_ms: int) -> float:
    """A seat's bank at the end of a match, as the referee's clock ran it: each answer's time beyond
    ``decision_ms`` comes off the bank, and a timeout empties it."""
    bank = float(bank_ms)
    for step in steps:
        if step.strike is not None and step.strike.startswith("timeout"):
            bank = 0.0
        elif step.latency_us is not None:
            bank = max(0.0, bank - max(0.0, step.latency_us / 1000 - decision_ms))
    return bank
