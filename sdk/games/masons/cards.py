"""The 60 guild cards of ruling M8, as 28 card kinds with their copies, and the piece colours."""

from __future__ import annotations

from dataclasses import dataclass

from .board import REGION_NAMES

TOWER_COLOURS = ("black", "white", "grey")
HOUSE_COLOURS = ("blue", "green", "yellow", "red", "pink")
#: The house die's sixth face: the player's free choice of colour.
ANY_COLOUR = len(HOUSE_COLOURS)
#: The tower die's faces (M2): each colour on two of six.
TOWER_DIE = (0, 0, 1, 1, 2, 2)


@dataclass(frozen=True, slots=True)
class CardKind:
    """One kind of guild card: what it scores is ``rule`` applied to ``colour`` or ``region``."""

    name: str
    copies: int
    rule: str  # small_city, large_city, variety, city_tower, city_palaces, city_colour, city_towers,
    #            land_houses, land_region, land_towers, land_tower, shore_towers, land_walls, cities
    colour: int = -1  # a tower colour (city_tower, land_tower) or a house colour (city_colour, land_houses)
    region: int = -1

    @property
    def about_city(self) -> bool:
        """Whether the card scores the city being scored (else the land or the cities on the board)."""
        return self.rule in CITY_RULES


CITY_RULES = frozenset(
    {"small_city", "large_city", "variety", "city_tower", "city_palaces", "city_colour", "city_towers"}
)


def _kinds() -> tuple[CardKind, ...]:
    kinds = [CardKind("small_city", 2, "small_city"), CardKind("large_city", 2, "large_city")]
    kinds.append(CardKind("variety", 2, "variety"))
    kinds += [CardKind(f"city_tower_{c}", 2, "city_tower", colour=n) for n, c in enumerate(TOWER_COLOURS)]
    kinds.append(CardKind("city_palaces", 2, "city_palaces"))
    kinds += [CardKind(f"city_colour_{h}", 3, "city_colour", colour=n) for n, h in enumerate(HOUSE_COLOURS)]
    kinds.append(CardKind("city_towers", 2, "city_towers"))
    kinds += [CardKind(f"land_houses_{h}", 2, "land_houses", colour=n) for n, h in enumerate(HOUSE_COLOURS)]
    kinds += [CardKind(f"land_region_{r}", 2, "land_region", region=n) for n, r in enumerate(REGION_NAMES)]
    kinds.append(CardKind("land_towers", 2, "land_towers"))
    kinds += [CardKind(f"land_tower_{c}", 2, "land_tower", colour=n) for n, c in enumerate(TOWER_COLOURS)]
    kinds += [
        CardKind("shore_towers", 2, "shore_towers"),
        CardKind("land_walls", 2, "land_walls"),
        CardKind("cities", 1, "cities"),
    ]
    return tuple(kinds)


CARDS: tuple[CardKind, ...] = _kinds()
KINDS = len(CARDS)  # 28
CARD_BY_NAME: dict[str, int] = {card.name: n for n, card in enumerate(CARDS)}
COPIES: tuple[int, ...] = tuple(card.copies for card in CARDS)
#: Card kinds that may be played in a final scoring when no city is on the board (M4).
WITHOUT_CITY: tuple[int, ...] = tuple(n for n, card in enumerate(CARDS) if not card.about_city)
FULL_DECK: tuple[int, ...] = tuple(n for n, copies in enumerate(COPIES) for _ in range(copies))
HAND_SIZE = 6

assert len(FULL_DECK) == 60, "M8: 60 guild cards"
