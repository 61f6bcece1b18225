"""One player's city and stock, and how it scores.

Each kind of item is a bit mask over the 49 squares, so a city is a handful of
ints: copying one for search costs a few attribute stores.
"""

from __future__ import annotations

from typing import Any

from .board import ADJACENT, OUTER, SIDE_MASKS, SPACES, squares_of
from .pieces import (
    CANNON_PENALTY,
    CHURCH_SERIES_VP,
    FULL_CITY_VP,
    Person,
    ScorePart,
)

NUM_PERSONS = len(Person)
MAX_CHURCH = 5


def church_series_points(counts: list[int]) -> int:
    """Points for churches given how many of each size 1..5 (index 0 = size 1).

    Repeatedly takes the longest run 1, 2, ..., m, one church of each size,
    until no size-1 church is left (ruling R6).
    """
    remaining = list(counts)
    points = 0
    while remaining[0] > 0:
        length = 0
        while length < MAX_CHURCH and remaining[length] > 0:
            remaining[length] -= 1
            length += 1
        points += CHURCH_SERIES_VP[length]
    return points


class City:
    """A player's board (masks per item kind) plus coins, logs, VP and cannons."""

    __slots__ = (
        "cannons_lost",
        "churches",
        "coins",
        "crates",
        "filled",
        "houses",
        "logs",
        "parts",
        "persons",
        "vp",
        "walls",
    )

    filled: int
    walls: int
    crates: int
    houses: int
    churches: tuple[int, ...]  # index k: churches of size k + 1
    persons: tuple[int, ...]  # index: Person
    coins: int
    logs: int
    vp: int  # points scored during play (the VP track)
    cannons_lost: int
    parts: list[int]  # in-play points by ScorePart; sums to vp

    @classmethod
    def new(cls, start_crates: int, coins: int = 3, logs: int = 2) -> City:
        """A city at the start of the game (ruling R2)."""
        city = cls.__new__(cls)
        city.filled = city.crates = start_crates
        city.walls = city.houses = 0
        city.churches = (0,) * MAX_CHURCH
        city.persons = (0,) * NUM_PERSONS
        city.coins, city.logs, city.vp, city.cannons_lost = coins, logs, 0, 0
        city.parts = [0] * len(ScorePart)
        return city

    def copy(self) -> City:
        """An independent copy (masks and tuples are immutable, so this is shallow)."""
        city = City.__new__(City)
        city.filled, city.walls, city.crates, city.houses = (
            self.filled,
            self.walls,
            self.crates,
            self.houses,
        )
        city.churches, city.persons = self.churches, self.persons
        city.coins, city.logs, city.vp, city.cannons_lost = (
            self.coins,
            self.logs,
            self.vp,
            self.cannons_lost,
        )
        city.parts = self.parts[:]
        return city

    def score(self, part: ScorePart, points: int) -> None:
        """Add in-play points to the VP track, remembering where they came from."""
        self.vp += points
        self.parts[part] += points

    # --- derived facts -------------------------------------------------------
    @property
    def empty(self) -> int:
        """Mask of the empty spaces."""
        return SPACES & ~self.filled

    @property
    def empty_count(self) -> int:
        return 45 - self.filled.bit_count()

    @property
    def is_full(self) -> bool:
        return self.filled == SPACES

    @property
    def destroyed_sides(self) -> int:
        """Bit set of sides holding anything but walls: their bonus and defence are gone."""
        blocked = self.filled & ~self.walls & OUTER
        return sum(1 << side for side, mask in enumerate(SIDE_MASKS) if blocked & mask)

    @property
    def complete_sides(self) -> int:
        """Bit set of sides whose five spaces all hold walls."""
        return sum(1 << side for side, mask in enumerate(SIDE_MASKS) if self.walls & mask == mask)

    @property
    def defence(self) -> int:
        """Soldiers count 1 each, complete sides 2 each."""
        return self.persons[Person.SOLDIER].bit_count() + 2 * self.complete_sides.bit_count()

    def adjacent_person_types(self, space: int) -> int:
        """How many distinct person types stand on the 8 squares around ``space``."""
        around = ADJACENT[space]
        return sum(1 for mask in self.persons if mask & around)

    def church_at(self, space: int) -> int:
        """Size of the church on ``space``, or 0."""
        bit = 1 << space
        for size_index, mask in enumerate(self.churches):
            if mask & bit:
                return size_index + 1
        return 0

    def person_at(self, space: int) -> Person | None:
        bit = 1 << space
        for person, mask in enumerate(self.persons):
            if mask & bit:
                return Person(person)
        return None

    # --- end of game ---------------------------------------------------------
    def final_parts(self) -> dict[ScorePart, int]:
        """Points added at the end of the game (ruling R6)."""
        return {
            ScorePart.FULL_CITY: FULL_CITY_VP if self.is_full else 0,
            ScorePart.COINS: self.coins // 2,
            ScorePart.LOGS: self.logs,
            ScorePart.CHURCHES: church_series_points([m.bit_count() for m in self.churches]),
            ScorePart.CANNONS: -CANNON_PENALTY * self.cannons_lost,
        }

    def score_breakdown(self) -> dict[ScorePart, int]:
        """Every part of the score as if the game ended now; the values sum to :meth:`final_score`."""
        breakdown = {ScorePart(p): v for p, v in enumerate(self.parts) if p < ScorePart.FULL_CITY}
        breakdown.update(self.final_parts())
        return breakdown

    def final_score(self) -> int:
        """The VP track plus the end-of-game additions."""
        return self.vp + sum(self.final_parts().values())

    # --- serialisation -------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "walls": self.walls,
            "crates": self.crates,
            "houses": self.houses,
            "churches": list(self.churches),
            "persons": list(self.persons),
            "coins": self.coins,
            "logs": self.logs,
            "vp": self.vp,
            "cannons_lost": self.cannons_lost,
            "parts": self.parts[: ScorePart.FULL_CITY],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> City:
        city = cls.__new__(cls)
        city.walls, city.crates, city.houses = data["walls"], data["crates"], data["houses"]
        city.churches = tuple(int(m) for m in data["churches"])
        city.persons = tuple(int(m) for m in data["persons"])
        if len(city.churches) != MAX_CHURCH or len(city.persons) != NUM_PERSONS:
            raise ValueError("a city needs 5 church masks and 7 person masks")
        city.filled = city.walls | city.crates | city.houses
        for mask in (*city.churches, *city.persons):
            city.filled |= mask
        city.coins, city.logs = int(data["coins"]), int(data["logs"])
        city.vp, city.cannons_lost = int(data["vp"]), int(data["cannons_lost"])
        city.parts = [int(v) for v in data["parts"]] + [0] * (len(ScorePart) - ScorePart.FULL_CITY)
        if len(city.parts) != len(ScorePart):
            raise ValueError("a city needs one in-play part per ScorePart up to WALL_BONUSES")
        return city

    def items(self) -> dict[int, str]:
        """What stands on each filled space, as a short lowercase label (for renderers)."""
        labels: dict[int, str] = {}
        for space in squares_of(self.walls):
            labels[space] = "wall"
        for space in squares_of(self.crates):
            labels[space] = "crate"
        for space in squares_of(self.houses):
            labels[space] = "house"
        for size_index, mask in enumerate(self.churches):
            for space in squares_of(mask):
                labels[space] = f"church{size_index + 1}"
        for person, mask in enumerate(self.persons):
            for space in squares_of(mask):
                labels[space] = Person(person).name.lower()
        return labels
