"""How much a decision may spend: a number of iterations, a time on the clock, or both."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budget:
    """Stop at ``iterations`` or after ``seconds``, whichever comes first.

    Only an iteration budget alone makes a search reproducible: how many iterations fit in a
    time depends on the machine and its load.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations, seconds or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, not {self.seconds}")

    def deadline(self, started: float) -> float:
        """The ``time.perf_counter()`` value past which no new iteration starts."""
        return float("inf") if self.seconds is None else started + self.seconds

    def spent(self, iterations: int, deadline: float) -> bool:
        if self.iterations is not None and iterations >= self.iterations:
            return True
        return self.seconds is not None and time.perf_counter() >= deadline
