"""Guild cards (M8) and the rulebook's scoring example."""

from __future__ import annotations

import pytest

from sdk.games.masons.actions import Score
from sdk.games.masons.cards import CARD_BY_NAME, CARDS, COPIES, FULL_DECK
from sdk.games.masons.scoring import CityFacts, LandFacts, card_points

from .positions import ONE_SPACE_CITIES, scoring_example

#: What each card scores for city X of the scoring example.
EXPECTED = {
    "small_city": 0, "large_city": 9, "variety": 7,
    "city_tower_black": 6, "city_tower_white": 4, "city_tower_grey": 4,
    "city_palaces": 2,
    "city_colour_blue": 1, "city_colour_green": 3, "city_colour_yellow": 0, "city_colour_red": 1,
    "city_colour_pink": 3,
    "city_towers": 7,
    "land_houses_blue": 3, "land_houses_green": 0, "land_houses_yellow": 0, "land_houses_red": 0,
    "land_houses_pink": 6,
    "land_region_west": 7, "land_region_middle": 2, "land_region_east": 0,
    "land_towers": 6, "land_tower_black": 2, "land_tower_white": 0, "land_tower_grey": 10,
    "shore_towers": 10, "land_walls": 6, "cities": 4,
}  # fmt: skip


def test_sixty_cards_in_twenty_eight_kinds() -> None:
    assert len(FULL_DECK) == 60 and len(CARDS) == 28 == len(EXPECTED)
    assert (
        sum(COPIES[CARD_BY_NAME[f"city_colour_{h}"]] for h in ("blue", "green", "yellow", "red", "pink"))
        == 15
    )
    assert COPIES[CARD_BY_NAME["cities"]] == 1


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_card_kind_scores_by_its_rule(name: str) -> None:
    state = scoring_example()
    assert state.card_value(CARD_BY_NAME[name], 0) == EXPECTED[name]


def test_the_rulebook_scoring_example() -> None:
    """A: 9 + 10; B: 6; C: 4 + 6; D: 7 + 7."""
    state = scoring_example(
        [
            ["large_city", "shore_towers"],
            ["land_walls"],
            ["cities", "land_houses_pink"],
            ["city_towers", "land_region_west"],
        ]
    )
    for names in (["large_city", "shore_towers"], ["land_walls"], ["cities", "land_houses_pink"]):
        state.apply(Score(tuple(sorted(CARD_BY_NAME[n] for n in names))))
    state.apply(Score(tuple(sorted(CARD_BY_NAME[n] for n in ("city_towers", "land_region_west")))))
    assert state.points == [19, 6, 10, 14]
    assert [sum(h) for h in state.hands] == [1, 1, 1, 1]  # played 2, 1, 2, 2 and drew 1 each


@pytest.mark.parametrize(("size", "points"), [(1, 6), (2, 7), (3, 8), (4, 0), (7, 0)])
def test_small_city_by_size(size: int, points: int) -> None:
    city = CityFacts(size, (0,) * 5, (0,) * 5, (0, 0, 0))
    land = LandFacts((0,) * 5, (0,) * 3, (0,) * 3, 0, 0, 0)
    assert card_points(CARD_BY_NAME["small_city"], city, land) == points


@pytest.mark.parametrize(("size", "points"), [(6, 0), (7, 9), (20, 9)])
def test_large_city_by_size(size: int, points: int) -> None:
    city = CityFacts(size, (0,) * 5, (0,) * 5, (0, 0, 0))
    land = LandFacts((0,) * 5, (0,) * 3, (0,) * 3, 0, 0, 0)
    assert card_points(CARD_BY_NAME["large_city"], city, land) == points


@pytest.mark.parametrize(
    ("houses", "palaces", "points"),
    [((0,) * 5, (0,) * 5, 0), ((3, 0, 0, 0, 0), (1, 0, 0, 0, 0), 0),
     ((1, 1, 0, 0, 0), (0,) * 5, 4), ((1, 0, 0, 0, 0), (0, 1, 1, 0, 0), 4),
     ((1, 1, 1, 1, 0), (0,) * 5, 7), ((1, 1, 1, 1, 0), (0, 0, 0, 0, 2), 7)],
)  # fmt: skip
def test_variety_counts_colours_of_houses_and_palaces(
    houses: tuple[int, ...], palaces: tuple[int, ...], points: int
) -> None:
    city = CityFacts(3, houses, palaces, (0, 0, 0))
    land = LandFacts((0,) * 5, (0,) * 3, (0,) * 3, 0, 0, 0)
    assert card_points(CARD_BY_NAME["variety"], city, land) == points


def test_a_one_space_city_scores_small_city() -> None:
    state = scoring_example()
    assert state.card_value(CARD_BY_NAME["small_city"], 1) == 6
    assert state.card_value(CARD_BY_NAME["city_towers"], 1) == 0  # no tower on its corners


def test_city_cards_score_nothing_without_a_city() -> None:
    state = scoring_example()
    assert all(state.card_value(k, None) == 0 for k, card in enumerate(CARDS) if card.about_city)
    assert state.card_value(CARD_BY_NAME["land_walls"], None) == 6


def test_two_copies_played_together_score_twice() -> None:
    state = scoring_example([["land_walls", "land_walls"], [], [], []])
    walls = CARD_BY_NAME["land_walls"]
    state.apply(Score((walls, walls)))
    assert state.points[0] == 12


def test_a_tower_on_the_shore_inside_a_city_is_not_on_the_land() -> None:
    state = scoring_example()
    land = state.land()
    assert land.shore_towers == 5  # points 0 and 7 are shore points of city X
    assert ONE_SPACE_CITIES and land.cities == 4
