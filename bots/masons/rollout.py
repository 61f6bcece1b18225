"""A fast full-state model of the greedy policy, for simulations, and a leaf evaluation.

In a dealt state every hand is known, so nothing is dealt per decision (the greedy bot deals
the unseen cards for each of its own): walls close a city when the closing seat's best pair
for it beats what the land offers, else go on a random line that closes nothing; towers and
houses take the colours the seat's cards count; cards, swaps and the final scoring are the
greedy policy's own (cheap) choices. Which lines close a city depends on the walls alone, so
a :class:`Closers` cache shares that flood fill between the simulations of one decision.
"""

from __future__ import annotations

import random

from sdk.games import masons as ms
from sdk.games.masons.board import LINE_COUNT, spaces_of
from sdk.games.masons.cards import CARDS, KINDS
from sdk.games.masons.enclosure import completed_by
from sdk.games.masons.scoring import card_points
from sdk.games.masons.state import CONNECT, FINAL, HOUSES, SCORE, SWAP, TOWERS, WALL, State

from .policy import LAND_WEIGHT, OPPONENT_WEIGHT, best_pair, choose_final, choose_score, choose_swap

#: A city card's typical worth when kept (its city is not known yet); land cards count their land value.
CITY_CARD_WORTH = {"small_city": 4.0, "large_city": 2.0, "variety": 4.0}
DEFAULT_CITY_CARD_WORTH = 3.0
#: Share of a kept card's worth that the leaf evaluation counts (it scores later, if at all).
HAND_WEIGHT = 0.5
#: Kept cards the leaf evaluation counts: the best few, as only a couple are played a round.
HAND_COUNTED = 4


class Closers:
    """The open lines that complete a city, per (walls, closed) board, computed once each."""

    def __init__(self) -> None:
        self._known: dict[tuple[int, int], tuple[int, ...]] = {}

    def of(self, state: State) -> tuple[int, ...]:
        key = (state.walls, state.closed)
        found = self._known.get(key)
        if found is None:
            walls = state.walls
            found = tuple(
                line for line in spaces_of(state.open_lines()) if completed_by(line, walls | 1 << line)
            )
            self._known[key] = found
        return found


def _settled_city(state: State, line: int) -> State:
    """A copy after ``line`` is walled and the turn built out with a free roll and first options."""
    copy = state.clone()
    copy.apply_unchecked(ms.Wall(line))
    copy.apply_unchecked(ms.Roll(0, (5, 5)))
    while copy.phase in (TOWERS, HOUSES) and not copy.is_chance_node():
        copy.apply_unchecked(copy.legal_actions()[0])
    if copy.phase == CONNECT:
        copy.apply_unchecked(ms.Connect(None))
    return copy


def _others_pair(state: State, seat: int, city: int) -> float:
    """What the other seats' actual hands score for ``city``, on average (they are known here)."""
    others = [best_pair(state, state.hands[s], city) for s in range(state.n) if s != seat]
    return sum(others) / len(others)


def choose_wall(state: State, seat: int, closers: Closers, rng: random.Random) -> ms.Wall:
    """Close the city that pays the seat best when it beats the land; else a wall closing nothing."""
    lines = closers.of(state)
    best, best_value = -1, LAND_WEIGHT * best_pair(state, state.hands[seat], None)
    for line in lines:
        settled = _settled_city(state, line)
        if settled.phase != SCORE:
            continue
        city = settled.scored_city
        value = best_pair(settled, settled.hands[seat], city) - OPPONENT_WEIGHT * _others_pair(
            settled, seat, city
        )
        if value > best_value:
            best, best_value = line, value
    if best >= 0:
        return ms.Wall(best)
    open_lines = state.open_lines()
    closing = sum(1 << line for line in lines)
    if open_lines & ~closing:
        open_lines &= ~closing
    while True:
        line = rng.randrange(LINE_COUNT)
        if open_lines >> line & 1:
            return ms.Wall(line)


def colour_weights(state: State, seat: int) -> tuple[list[float], list[float]]:
    """How much a house of each colour and a tower of each colour are worth to the seat's cards."""
    hand = state.hands[seat]
    in_city = 1.0 if state.new_city else 0.3
    houses = [0.1] * 5
    towers = [0.1] * 3
    for kind in range(KINDS):
        count = hand[kind]
        if not count:
            continue
        card = CARDS[kind]
        if card.rule == "city_colour":
            houses[card.colour] += count * in_city
        elif card.rule == "land_houses":
            houses[card.colour] += count
        elif card.rule == "city_tower":
            towers[card.colour] += 2 * count * in_city
        elif card.rule == "land_tower":
            towers[card.colour] += 2 * count
    return houses, towers


def _choose_colours(options: list[ms.Action], weights: list[float]) -> ms.Action:
    """The towers or houses whose colours weigh most (the first of equals)."""

    def worth(action: ms.Action) -> float:
        assert isinstance(action, ms.Towers | ms.Houses)
        return sum(weights[c] for c in action.colours if c >= 0)

    return max(options, key=worth)


def choose_connect(state: State, seat: int) -> ms.Connect:
    """The join (or none) after which the seat's best pair for the city is largest."""
    best, best_value = ms.Connect(None), -1
    for action in state.legal_actions():
        copy = state.clone()
        copy.apply_unchecked(action)
        if copy.phase != SCORE:
            continue
        value = best_pair(copy, copy.hands[seat], copy.scored_city)
        if value > best_value:
            assert isinstance(action, ms.Connect)
            best, best_value = action, value
    return best


def fast_action(state: State, closers: Closers, rng: random.Random) -> ms.Action:
    """The modelled greedy choice of the seat deciding in the full state ``state``."""
    seat = state.current_player
    phase = state.phase
    if phase == WALL:
        return choose_wall(state, seat, closers, rng)
    if phase == TOWERS:
        return _choose_colours(state.legal_actions(), colour_weights(state, seat)[1])
    if phase == HOUSES:
        return _choose_colours(state.legal_actions(), colour_weights(state, seat)[0])
    if phase == CONNECT:
        return choose_connect(state, seat)
    if phase == SCORE:
        return choose_score(state, seat)
    if phase == SWAP:
        return choose_swap(state, seat)
    assert phase == FINAL
    return choose_final(state, seat)


def hand_worth(state: State, seat: int) -> float:
    """What the seat's best few kept cards can be expected to score later."""
    land = state.land()
    values = []
    for kind in range(KINDS):
        count = state.hands[seat][kind]
        if count:
            card = CARDS[kind]
            if card.about_city:
                worth = CITY_CARD_WORTH.get(card.rule, DEFAULT_CITY_CARD_WORTH)
            else:
                worth = float(card_points(kind, None, land))
            values += [worth] * count
    values.sort(reverse=True)
    return sum(values[:HAND_COUNTED])


def evaluate(state: State, seat: int) -> float:
    """The seat's margin over the average other seat: points, plus kept cards' expected worth."""
    if state.is_terminal():
        worth = [float(p) for p in state.points]
    else:
        worth = [state.points[s] + HAND_WEIGHT * hand_worth(state, s) for s in range(state.n)]
    others = [w for s, w in enumerate(worth) if s != seat]
    return worth[seat] - sum(others) / len(others)


def simulate(state: State, seat: int, turns: int, closers: Closers, rng: random.Random) -> float:
    """Play ``state`` on with the model until ``turns`` more turns have begun (or the end), then value it."""
    stop = state.turn + turns
    while not state.is_terminal() and state.turn < stop:
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
        else:
            state.apply_unchecked(fast_action(state, closers, rng))
    return evaluate(state, seat)
