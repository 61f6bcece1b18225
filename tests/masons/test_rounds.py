"""Scoring rounds (M6), swaps (M7), the draw pile, game end and final scoring (M4), ranks."""

from __future__ import annotations

import pytest

from sdk.games.errors import IllegalActionError
from sdk.games.masons.actions import FinalScore, Houses, Score, Shuffle, Swap, Towers, Wall
from sdk.games.masons.board import point
from sdk.games.masons.cards import CARD_BY_NAME, KINDS
from sdk.games.masons.phases import FINAL, OVER, SCORE, SWAP, WALL
from sdk.games.masons.state import State

from .builders import build, dealt, line, with_walls
from .positions import scoring_example

WALLS, TOWERS = CARD_BY_NAME["land_walls"], CARD_BY_NAME["city_towers"]
LARGE, REGION_W = CARD_BY_NAME["large_city"], CARD_BY_NAME["land_region_west"]
CITIES = CARD_BY_NAME["cities"]


def _hands(state: State, hands: list[dict[int, int]]) -> State:
    """Give each seat exactly these cards; the rest of the cards go into the draw pile."""
    pool = [0] * KINDS
    for hand in state.hands:
        for k, n in enumerate(hand):
            pool[k] += n
    for k in state.draw_pile:
        pool[k] += 1
    for seat, given in enumerate(hands):
        state.hands[seat] = [given.get(k, 0) for k in range(KINDS)]
        for k, n in given.items():
            pool[k] -= n
    state.draw_pile = [k for k in range(KINDS) for _ in range(pool[k])]
    return state


def test_every_player_scores_in_order_from_the_active_player() -> None:
    state = scoring_example()
    state.active, state.queue = 2, [2, 3, 0, 1]
    assert state.current_player == 2
    state.apply(state.legal_actions()[0])
    assert state.current_player == 3


def test_discarding_one_card_draws_two() -> None:
    state = _hands(scoring_example(), [{WALLS: 1, TOWERS: 1}, {WALLS: 1}, {WALLS: 1}, {WALLS: 1}])
    top = state.draw_pile[:2]
    state.apply(Score((TOWERS,), discard=True))
    assert state.points[0] == 0 and sum(state.hands[0]) == 3
    assert all(state.hands[0][k] >= 1 for k in top) and state.discards[TOWERS] == 1


def test_a_discard_is_one_card_and_cards_must_be_held() -> None:
    state = _hands(scoring_example(), [{WALLS: 1, TOWERS: 1}, {WALLS: 1}, {WALLS: 1}, {WALLS: 1}])
    with pytest.raises(IllegalActionError, match="M6"):
        state.apply(Score((WALLS, TOWERS), discard=True))
    with pytest.raises(IllegalActionError, match="M6"):
        state.apply(Score((LARGE,)))
    with pytest.raises(IllegalActionError, match="M6"):
        state.apply(Score(()))


def test_a_player_without_cards_passes_unasked() -> None:
    state = _hands(scoring_example(), [{WALLS: 1}, {}, {WALLS: 1}, {WALLS: 1}])
    state.apply(Score((WALLS,)))
    assert state.current_player == 2


def test_the_lowest_players_swap_in_order_from_the_active_player() -> None:
    state = _hands(scoring_example(), [{WALLS: 1}, {LARGE: 1}, {WALLS: 1}, {CITIES: 1, LARGE: 1}])
    state.active, state.queue = 1, [1, 2, 3, 0]
    state.apply(Score((LARGE,)))  # 9
    state.apply(Score((WALLS,)))  # 6
    state.apply(Score((LARGE,), discard=True))  # 0
    state.apply(Score((WALLS,)))  # 6
    assert state.points == [6, 9, 6, 0] and state.phase == SWAP and state.queue == [3]
    hand = state.hands[3]
    swapped = tuple(k for k in range(KINDS) for _ in range(hand[k]))[:2]
    state.apply(Swap(swapped))
    assert sum(state.hands[3]) == sum(hand) and state.phase == WALL and state.active == 2


def test_tied_lowest_players_all_swap() -> None:
    state = _hands(scoring_example(), [{WALLS: 1}, {LARGE: 1}, {WALLS: 1}, {LARGE: 1}])
    for _ in range(4):
        held = state.hands[state.current_player]
        state.apply(Score((held.index(1),), discard=True))
    assert state.phase == SWAP and state.queue == [0, 1, 2, 3]
    with pytest.raises(IllegalActionError, match="M7"):
        state.apply(Swap((CITIES,)))
    state.apply(Swap(()))
    assert state.queue == [1, 2, 3]


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discards_played_cards_included() -> None:
    state = _hands(scoring_example(), [{WALLS: 2}, {WALLS: 1}, {LARGE: 1}, {LARGE: 1}])
    state.discards[CITIES] = 1
    state.draw_pile = []
    state.apply(Score((WALLS, WALLS)))
    assert state.is_chance_node() and state.draws == [[0, 1]]
    with pytest.raises(IllegalActionError, match="M6"):
        state.apply(Shuffle((CITIES, CITIES, WALLS)))
    state.apply(Shuffle((WALLS, CITIES, WALLS)))
    assert state.hands[0][WALLS] == 1 and state.draw_pile == [CITIES, WALLS] and not any(state.discards)
    assert state.current_player == 1


def test_nothing_is_drawn_when_both_piles_are_empty() -> None:
    state = _hands(scoring_example(), [{WALLS: 2}, {WALLS: 1}, {LARGE: 1}, {LARGE: 1}])
    state.draw_pile = []
    state.discards = [0] * KINDS
    state.hands[0] = [0] * KINDS
    state.hands[0][WALLS] = 1
    state.apply(Score((WALLS,)))
    assert state.discards[WALLS] == 1 and state.is_chance_node()  # the played card is shuffled back
    state.apply(Shuffle((WALLS,)))
    assert state.hands[0][WALLS] == 1


def _last_wall_position() -> State:
    state = dealt(3)
    state.walls_left = 1
    state.towers[2] |= 1 << point(2, 2) | 1 << point(2, 3)
    return state


def test_the_last_wall_ends_the_game_with_a_final_scoring() -> None:
    state = _hands(_last_wall_position(), [{WALLS: 1}, {WALLS: 1}, {CITIES: 1}])
    state.active = 1
    build(state, line((2, 2), (2, 3)), houses=(0, 0))
    assert state.phase == FINAL and state.queue == [1, 2, 0]
    assert state.walls_left == 0 and state.ending


def test_final_scoring_without_a_city_allows_land_cards_only_and_draws_nothing() -> None:
    state = _hands(_last_wall_position(), [{WALLS: 1, LARGE: 1}, {WALLS: 1}, {CITIES: 1}])
    build(state, line((2, 2), (2, 3)), houses=(0, 0))
    assert FinalScore(None, (LARGE,)) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="M4"):
        state.apply(FinalScore(None, (LARGE,)))
    with pytest.raises(IllegalActionError, match="M4"):
        state.apply(FinalScore(0, (WALLS,)))
    state.apply(FinalScore(None, (WALLS,)))
    assert state.points[0] == 1 and sum(state.hands[0]) == 1
    state.apply(FinalScore(None, ()))
    state.apply(FinalScore(None, (CITIES,)))
    assert state.phase == OVER and state.points == [1, 0, 0]


def test_final_scoring_names_a_completed_city() -> None:
    state = _hands(scoring_example(), [{LARGE: 1, REGION_W: 1}, {}, {}, {}])
    state.phase, state.queue, state.scored_city = FINAL, [0], -1
    with pytest.raises(IllegalActionError, match="M4"):
        state.apply(FinalScore(None, (LARGE,)))
    state.apply(FinalScore(0, (LARGE, REGION_W)))
    assert state.points[0] == 16 and state.phase == OVER


@pytest.mark.parametrize("kind", ["towers", "houses", "palaces"])
def test_the_last_piece_of_each_kind_ends_the_game(kind: str) -> None:
    state = _hands(dealt(2), [{WALLS: 1}, {WALLS: 1}])
    if kind == "towers":
        state.towers_left = [1, 0, 0]
    elif kind == "houses":
        state.houses_left = [0, 0, 0, 1, 0]
        state.towers[2] |= 1 << point(2, 2) | 1 << point(2, 3)
    else:
        state.palaces_left = [0, 0, 0, 1, 0]
        return _palace_ends(state)
    build(state, line((2, 2), (2, 3)), tower=0, houses=(3, 3))
    if state.phase not in (FINAL, OVER):
        state.apply(state.legal_actions()[0])
    if state.phase not in (FINAL, OVER):
        state.apply(state.legal_actions()[0])
    assert state.ending and state.phase == FINAL
    return None


def _palace_ends(state: State) -> None:
    bottom, left, right = line((0, 0), (0, 1)), line((0, 0), (1, 0)), line((0, 1), (1, 0))
    with_walls(state, [bottom, left])
    state.towers[2] |= 1 << point(0, 1) | 1 << point(1, 0)
    state.houses[0][3] = 1
    build(state, right, houses=(3, 0))
    state.apply(Houses((3, 0)))
    assert state.phase == SCORE and state.ending  # a city was completed: it is scored, then the end
    while state.phase == SCORE:
        state.apply(state.legal_actions()[0])
    while state.phase == SWAP:
        state.apply(Swap(()))
    assert state.phase == OVER


def test_no_line_left_ends_the_game_at_once() -> None:
    state = _hands(dealt(2), [{WALLS: 1}, {WALLS: 1}])
    state.walls = (1 << 82) - 1
    state.walls_left = 5
    state.towers[2] |= 1 << point(2, 2) | 1 << point(2, 3)
    state._start_turn(1)
    assert state.phase == FINAL and state.queue == [1, 0]


def test_ranks_break_ties_by_cards_in_hand_then_share() -> None:
    state = dealt(4)
    state.points = [10, 10, 10, 4]
    state.hands[0] = [0] * KINDS
    state.hands[1][0] += 1
    assert [sum(h) for h in state.hands] == [0, 7, 6, 6]
    assert state.ranks() == [3, 1, 2, 4]
    state.hands[2][0] += 1
    assert state.ranks() == [3, 1, 1, 4]


def test_towers_and_houses_are_refused_out_of_turn_order() -> None:
    state = dealt(2)
    with pytest.raises(IllegalActionError, match="M3"):
        state.apply(Towers((0, 0)))
    state.apply(Wall(line((2, 2), (2, 3))))
    with pytest.raises(IllegalActionError, match="M10"):
        state.apply(Houses((0, 0)))
