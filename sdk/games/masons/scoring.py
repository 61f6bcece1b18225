"""What a guild card scores (ruling M8) on a given board, for the city being scored or none; and
the final score table: what each seat scored in every scoring round (M6) and the final scoring (M4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sdk.games.score_rows import ScoreRow

from .board import POINTS, SHORE_POINTS, SPACE_REGION, lines_touching, points_of
from .cards import CARDS

if TYPE_CHECKING:
    from .state import State

ALL_POINTS = (1 << POINTS) - 1


@dataclass(frozen=True, slots=True)
class CityFacts:
    """The city being scored: its spaces, houses and palaces per colour, towers per colour."""

    size: int
    houses: tuple[int, ...]
    palaces: tuple[int, ...]
    towers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LandFacts:
    """What lies on the land (on the board, in no completed city), and how many cities there are."""

    houses: tuple[int, ...]  # per house colour
    region_houses: tuple[int, ...]  # per region
    towers: tuple[int, ...]  # per tower colour
    shore_towers: int
    walls: int
    cities: int


def city_facts(spaces: int, houses: list[int], palaces: list[int], towers: list[int]) -> CityFacts:
    """Facts of one city; ``towers`` are the board's tower masks per colour."""
    points = points_of(spaces)
    return CityFacts(
        size=spaces.bit_count(),
        houses=tuple(houses),
        palaces=tuple(palaces),
        towers=tuple((mask & points).bit_count() for mask in towers),
    )


def land_facts(
    city_spaces: int, land_houses: list[list[int]], towers: list[int], walls: int, cities: int
) -> LandFacts:
    """Facts of the land; ``city_spaces`` is every space in a completed city."""
    land_points = ALL_POINTS & ~points_of(city_spaces)
    by_colour = [0] * 5
    by_region = [0, 0, 0]
    for sp, here in enumerate(land_houses):
        if (here[0] or here[1] or here[2] or here[3] or here[4]) and not city_spaces >> sp & 1:
            for colour in range(5):
                by_colour[colour] += here[colour]
            by_region[SPACE_REGION[sp]] += sum(here)
    return LandFacts(
        houses=tuple(by_colour),
        region_houses=tuple(by_region),
        towers=tuple((mask & land_points).bit_count() for mask in towers),
        shore_towers=sum((mask & land_points & SHORE_POINTS).bit_count() for mask in towers),
        walls=(walls & ~lines_touching(city_spaces)).bit_count(),
        cities=cities,
    )


def _variety(city: CityFacts) -> int:
    colours = sum(1 for h, p in zip(city.houses, city.palaces, strict=True) if h or p)
    return 4 if 2 <= colours <= 3 else 7 if colours >= 4 else 0


def card_points(card: int, city: CityFacts | None, land: LandFacts) -> int:
    """Points card ``card`` scores now; a city card scores 0 without a city."""
    kind = CARDS[card]
    rule = kind.rule
    if kind.about_city:
        if city is None:
            return 0
        if rule == "small_city":
            return 5 + city.size if 1 <= city.size <= 3 else 0
        if rule == "large_city":
            return 9 if city.size >= 7 else 0
        if rule == "variety":
            return _variety(city)
        if rule == "city_tower":
            return 2 * city.towers[kind.colour]
        if rule == "city_palaces":
            return sum(city.palaces)
        if rule == "city_colour":
            return 3 * city.palaces[kind.colour] + city.houses[kind.colour]
        return sum(city.towers)  # city_towers
    if rule == "land_houses":
        return land.houses[kind.colour]
    if rule == "land_region":
        return land.region_houses[kind.region]
    if rule == "land_towers":
        return sum(land.towers)
    if rule == "land_tower":
        return 2 * land.towers[kind.colour]
    if rule == "shore_towers":
        return 2 * land.shore_towers
    if rule == "land_walls":
        return land.walls
    return land.cities  # cities


def _spaces(size: int) -> str:
    return f"{size} space{'' if size == 1 else 's'}"


def score_rows(state: State) -> tuple[ScoreRow, ...]:
    """One row per scoring so far, in the order played: each scoring round (M6) names its city and the
    city's size then; the final scoring (M4) comes last. Points are scored nowhere else, so the rows
    add up to every seat's score."""
    return tuple(
        ScoreRow(
            f"round_{number}",
            f"scoring round {number}: city {scoring.city} ({_spaces(scoring.size)})",
            scoring.points,
        )
        if scoring.city >= 0
        else ScoreRow("final", "final scoring (no city in the last turn)", scoring.points)
        for number, scoring in enumerate(state.scorings, 1)
    )
