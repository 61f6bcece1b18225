"""Game parameters that a bracket may change (ruling R2/R4/R5 defaults).

The table size is not a parameter of the variant: it is given to ``new_game``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .board import SIDE_NAMES, SPACES, mask_of, row_col, square

SideBonus = Literal["person", "coins", "vp"]
SIDE_BONUS_KINDS: tuple[SideBonus, ...] = ("person", "coins", "vp")
MIN_PLAYERS, MAX_PLAYERS = 2, 5

DEFAULT_START_CRATES: tuple[int, ...] = tuple(square(r, c) for r, c in ((1, 1), (1, 2), (2, 1), (3, 1)))
DEFAULT_SIDE_BONUSES: tuple[SideBonus, ...] = ("person", "coins", "vp", "coins")


@dataclass(frozen=True, slots=True)
class Params:
    """Rules variants. Defaults are the published game.

    ``start_crates`` are square indices (``row * 7 + col``); ``side_bonuses`` is
    ordered top, right, bottom, left.
    """

    start_crates: tuple[int, ...] = DEFAULT_START_CRATES
    side_bonuses: tuple[SideBonus, ...] = DEFAULT_SIDE_BONUSES
    cannons: int = 6
    start_crates_mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        mask = mask_of(*self.start_crates)
        if len(set(self.start_crates)) != len(self.start_crates) or mask & ~SPACES:
            raise ValueError("start_crates must be distinct spaces (not towers, on the board)")
        if len(self.side_bonuses) != 4 or any(b not in SIDE_BONUS_KINDS for b in self.side_bonuses):
            raise ValueError(f"side_bonuses needs one of {SIDE_BONUS_KINDS} per side")
        if self.cannons < 0:
            raise ValueError("cannons must be >= 0")
        object.__setattr__(self, "start_crates_mask", mask)

    def to_json(self) -> dict[str, Any]:
        """Plain-data form; squares as ``[row, col]`` so people can read it."""
        return {
            "start_crates": [list(row_col(i)) for i in self.start_crates],
            "side_bonuses": dict(zip(SIDE_NAMES, self.side_bonuses, strict=True)),
            "cannons": self.cannons,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Params:
        """Inverse of :meth:`to_json`; missing keys take their defaults."""
        unknown = set(data) - {"start_crates", "side_bonuses", "cannons"}
        if unknown:
            raise ValueError(f"unknown game parameter(s): {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = {}
        if "start_crates" in data:
            kwargs["start_crates"] = tuple(square(int(r), int(c)) for r, c in data["start_crates"])
        if "side_bonuses" in data:
            bonuses = dict(zip(SIDE_NAMES, DEFAULT_SIDE_BONUSES, strict=True))
            extra = set(data["side_bonuses"]) - set(SIDE_NAMES)
            if extra:
                raise ValueError(f"unknown side(s) in side_bonuses: {', '.join(sorted(extra))}")
            bonuses.update(data["side_bonuses"])
            kwargs["side_bonuses"] = tuple(bonuses[s] for s in SIDE_NAMES)
        if "cannons" in data:
            kwargs["cannons"] = int(data["cannons"])
        return cls(**kwargs)
