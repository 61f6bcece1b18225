"""How each seat used its clock in one match: every answer's time and the time bank spent.

Worked out from the steps where the match is played and stored beside it, so that the standings'
decision times and bank figures never decode a replay. The answer times are kept whole (not a
histogram), so every percentile shown is exactly the one the steps give: sorted, as differences
from the one before, zlib-compressed (about a tenth of the match's steps block).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from server.record import StepRecord

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["ClockBlockError", "ClockUse", "bank_left", "clock_uses"]

#: Each difference as a little-endian 64-bit integer (struct's ``<q``, numpy's ``<i8``): a decision
#: may last the longest bank a bracket allows, more microseconds than 32 bits hold.
_PACKED = "<i8"


class ClockBlockError(ValueError):
    """Stored answer times that cannot be decoded; the message says why."""


@dataclass(frozen=True, slots=True)
class ClockUse:
    """One seat's clock over one match (its fields are the columns of its stored row)."""

    bank_used_ms: float
    latencies: bytes
    """The seat's answer times in microseconds, as :meth:`of_steps` packs them."""

    @classmethod
    def of_steps(cls, steps: Iterable[StepRecord], decision_ms: int, bank_ms: int) -> ClockUse:
        """The clock use of the steps of one seat."""
        timed = [step for step in steps if step.latency_us is not None]
        answers = sorted(step.latency_us for step in timed if step.latency_us is not None)
        differences = [later - earlier for earlier, later in zip([0, *answers], answers, strict=False)]
        block = zlib.compress(struct.pack(f"<{len(differences)}q", *differences))
        return cls(bank_ms - bank_left(timed, decision_ms, bank_ms), block)

    def latencies_us(self) -> npt.NDArray[np.int64]:
        """The seat's answer times in microseconds, shortest first.

        numpy is imported here, by the readers of many of them, not by every worker that packs one.
        """
        import numpy as np

        try:
            differences = np.frombuffer(zlib.decompress(self.latencies), dtype=_PACKED)
        except (zlib.error, ValueError) as exc:
            raise ClockBlockError(str(exc)) from None
        return np.cumsum(differences)


def clock_uses(
    steps: Sequence[StepRecord], seats: Iterable[int], time_control: Mapping[str, int]
) -> tuple[ClockUse, ...]:
    """The clock use of each of ``seats`` (in their order) in a match of ``steps`` played under
    ``time_control`` (its ``decision_ms`` and ``bank_ms``)."""
    decision_ms, bank_ms = time_control["decision_ms"], time_control["bank_ms"]
    return tuple(
        ClockUse.of_steps((step for step in steps if step.seat == seat), decision_ms, bank_ms)
        for seat in seats
    )


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
