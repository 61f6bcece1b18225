"""Game parameters a bracket may change: the size of the game (C3) and the round limit (C7).

The table size is not a parameter: it is given to ``new_game``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import (
    ANGERS,
    COMMANDERS,
    CRISIS_DISCIPLINES,
    EMPIRE_MASKS,
    EVENT_CARDS,
    NEUTRAL_MASK,
    NUM_EVENT_TYPES,
    Empire,
    EventType,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_ROUNDS_LIMIT = 1000

#: Per size: the empires in play and whether the neutral cities are (C3).
SIZES: dict[str, tuple[tuple[Empire, ...], bool]] = {
    "full": (tuple(Empire), True),
    "regular": (tuple(Empire)[:6], True),
    "fast": ((Empire.ROME, Empire.GREECE, Empire.EGYPT, Empire.PERSIA), True),
    "very-short": ((Empire.GREECE, Empire.EGYPT, Empire.PERSIA), False),
}
_KEYS = ("size", "max_rounds")


def _removed(empires: tuple[Empire, ...]) -> frozenset[EventType]:
    """Cards that leave with absent empires: their Commander and Anger, and crises about them only."""
    absent = [e for e in Empire if e not in empires]
    removed = {COMMANDERS[e] for e in absent} | {ANGERS[e] for e in absent}
    removed |= {ev for ev, pair in CRISIS_DISCIPLINES.items() if all(Empire(d) in absent for d in pair)}
    return frozenset(removed)


@dataclass(frozen=True, slots=True)
class Params:
    """Rules variants. Defaults are the full game with a 60-round limit.

    Derived (not compared, not serialised): ``empires`` in play, ``city_mask`` (every city
    in play), ``empire_city_mask`` (the cities of the empires in play), ``events`` (the
    event cards in play, one entry per card) and ``event_counts`` (copies per kind).
    """

    size: str = "full"
    max_rounds: int = 60
    empires: tuple[Empire, ...] = field(init=False, repr=False, compare=False)
    city_mask: int = field(init=False, repr=False, compare=False)
    empire_city_mask: int = field(init=False, repr=False, compare=False)
    events: tuple[EventType, ...] = field(init=False, repr=False, compare=False)
    event_counts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.size, str) or self.size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(SIZES)}, not {self.size!r}")
        rounds = self.max_rounds
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS_LIMIT:
            raise ValueError(f"max_rounds must be an integer from 1 to {MAX_ROUNDS_LIMIT}, not {rounds!r}")
        empires, neutral = SIZES[self.size]
        empire_cities = sum(EMPIRE_MASKS[e] for e in empires)
        removed = _removed(empires)
        events = tuple(ev for ev in EVENT_CARDS if ev not in removed)
        counts = [0] * NUM_EVENT_TYPES
        for ev in events:
            counts[ev] += 1
        object.__setattr__(self, "empires", empires)
        object.__setattr__(self, "empire_city_mask", empire_cities)
        object.__setattr__(self, "city_mask", empire_cities | (NEUTRAL_MASK if neutral else 0))
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "event_counts", tuple(counts))

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size, "max_rounds": self.max_rounds}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Params:
        """Inverse of :meth:`to_json`; missing keys take their defaults, unknown keys are refused."""
        if not isinstance(data, dict):
            raise ValueError(f"game parameters must be a mapping, not {data!r}")
        unknown = set(data) - set(_KEYS)
        if unknown:
            raise ValueError(f"unknown game parameter(s): {', '.join(sorted(map(str, unknown)))}")
        try:
            return cls(**{key: data[key] for key in _KEYS if key in data})
        except ValueError as exc:
            raise ValueError(f"bad game parameter: {exc}") from exc
