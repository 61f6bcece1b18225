"""Game parameters a bracket may change (the *(param)* values of the rulings)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import COLOURS

MIN_PLAYERS, MAX_PLAYERS = 2, 4


def _int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, not {value!r}")
    return value


def _ints(name: str, value: Any, length: int, low: int, high: int) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != length:
        raise ValueError(f"{name} must be a list of {length} integers, not {value!r}")
    return tuple(_int(name, v, low, high) for v in value)


def _colours(name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != 5 or any(v not in COLOURS for v in value):
        raise ValueError(f"{name} must list 5 colours of {', '.join(COLOURS)}, not {value!r}")
    return tuple(COLOURS.index(v) for v in value)


@dataclass(frozen=True, slots=True)
class Params:
    """Rules variants; the defaults are the rulings' (B2, B5, B6, B7, B9, B14, B16, B21)."""

    threat_markers: int = 9
    statues: tuple[int, ...] = (7, 6, 5, 4, 3, 2)
    start_guilders: int = 5
    start_score: int = 5
    reputation_points: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 15, 17, 19)
    canal_costs: tuple[int, ...] = (1, 2, 3, 4, 5)
    canal_colours: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 2, 4, 1, 3), (1, 3, 0, 4, 2))
    hand_size: int = 5
    turns_per_round: int = 4
    space3_points: int = 3
    majority_points: int = 4

    @property
    def top_step(self) -> int:
        return len(self.reputation_points) - 1

    def to_json(self) -> dict[str, Any]:
        return {
            "threat_markers": self.threat_markers,
            "statues": list(self.statues),
            "start_guilders": self.start_guilders,
            "start_score": self.start_score,
            "reputation_points": list(self.reputation_points),
            "canal_costs": list(self.canal_costs),
            "canal_colours": [[COLOURS[c] for c in section] for section in self.canal_colours],
            "hand_size": self.hand_size,
            "turns_per_round": self.turns_per_round,
            "space3_points": self.space3_points,
            "majority_points": self.majority_points,
        }

    @classmethod
    def from_json(cls, data: Any) -> Params:
        """Inverse of :meth:`to_json`; missing keys take defaults, unknown keys and bad values are refused."""
        if not isinstance(data, dict):
            raise ValueError(f"game parameters must be a mapping, not {data!r}")
        default = cls()
        unknown = set(data) - set(default.to_json())
        if unknown:
            raise ValueError(f"unknown game parameter(s): {', '.join(sorted(map(str, unknown)))}")
        try:
            get = data.get
            colours = get("canal_colours")
            if colours is None:
                sections = default.canal_colours
            elif isinstance(colours, (list, tuple)) and len(colours) == 2:
                sections = (_colours("canal_colours", colours[0]), _colours("canal_colours", colours[1]))
            else:
                raise ValueError(f"canal_colours must be two lists of 5 colours, not {colours!r}")
            reputation = get("reputation_points", default.reputation_points)
            if not isinstance(reputation, (list, tuple)) or not 2 <= len(reputation) <= 40:
                raise ValueError(f"reputation_points must list 2 to 40 step values, not {reputation!r}")
            statues = get("statues", default.statues)
            if not isinstance(statues, (list, tuple)) or len(statues) > 20:
                raise ValueError(f"statues must list at most 20 values, not {statues!r}")
            return cls(
                threat_markers=_int("threat_markers", get("threat_markers", 9), 0, 1000),
                statues=tuple(_int("statues", v, 0, 100) for v in statues),
                start_guilders=_int("start_guilders", get("start_guilders", 5), 0, 1000),
                start_score=_int("start_score", get("start_score", 5), 0, 1000),
                reputation_points=tuple(_int("reputation_points", v, 0, 1000) for v in reputation),
                canal_costs=_ints("canal_costs", get("canal_costs", default.canal_costs), 5, 0, 100),
                canal_colours=sections,
                hand_size=_int("hand_size", get("hand_size", 5), 1, 20),
                turns_per_round=_int("turns_per_round", get("turns_per_round", 4), 1, 20),
                space3_points=_int("space3_points", get("space3_points", 3), 0, 100),
                majority_points=_int("majority_points", get("majority_points", 4), 0, 100),
            )
        except ValueError as exc:
            raise ValueError(f"bad game parameter: {exc}") from exc
