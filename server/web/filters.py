"""Query parameters: the match list's filters (so a filtered list has a shareable URL) and a replay's seat."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from server.tournament.conduct import FAULT_KINDS, fault_kind


class FilterError(ValueError):
    """A filter value that cannot be read (the message names the field)."""


def _number(query: Mapping[str, str], key: str, what: str) -> int | None:
    text = query.get(key, "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise FilterError(f"{what} must be a whole number, got {text!r}") from None


def _fault(query: Mapping[str, str]) -> str | None:
    kind = query.get("fault", "").strip()
    if not kind:
        return None
    if kind not in FAULT_KINDS:
        raise FilterError(f"fault must be one of {', '.join(FAULT_KINDS)}, got {kind!r}")
    return kind


@dataclass(frozen=True, slots=True)
class SeatFilter:
    """Which seats a match list asks for; a match is listed when one of its seats passes.

    Every filter given applies to the same seat, so ``entrant=greedy&seat=0&score_min=50``
    lists the matches greedy played in seat 0 and scored 50 or more in.
    """

    entrant: str | None = None
    seat: int | None = None
    strikes_min: int | None = None
    score_min: int | None = None
    score_max: int | None = None
    fault: str | None = None

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> SeatFilter:
        """Empty fields mean "any", as an HTML form sends them."""
        return cls(
            entrant=query.get("entrant", "").strip() or None,
            seat=_number(query, "seat", "seat"),
            strikes_min=_number(query, "strikes", "strikes"),
            score_min=_number(query, "score_min", "minimum score"),
            score_max=_number(query, "score_max", "maximum score"),
            fault=_fault(query),
        )

    def passes(self, *, entrant: str, seat: int, strikes: int, score: float, faults: list[str]) -> bool:
        return (
            (self.entrant is None or entrant == self.entrant)
            and (self.seat is None or seat == self.seat)
            and (self.strikes_min is None or strikes >= self.strikes_min)
            and (self.score_min is None or score >= self.score_min)
            and (self.score_max is None or score <= self.score_max)
            and (self.fault is None or any(fault_kind(f) == self.fault for f in faults))
        )

    def is_empty(self) -> bool:
        return self == SeatFilter()


def viewer_seat(query: Mapping[str, str]) -> int | None:
    """The ``seat`` a replay is asked for (``?seat=N``), None for the organiser's view of everything."""
    return _number(query, "seat", "seat")
