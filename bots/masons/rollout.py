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
from sdk.games.masons.phases import CONNECT, FINAL, HOUSES, SCORE, SWAP, TOWERS, WALL
from sdk.games.masons.scoring import card_points
from sdk.games.masons.state import State

from .policy import LAND_WEIGHT, OPPONENT_WEIGHT, choose_final, choose_score, choose_swap

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


def kind_values(state: State, city: int | None) -> list[int]:
    """What one card of each kind scores now, for completed city ``city`` (None: the land only)."""
    land = state.land()
    facts = None if city is None else state.city(city)
    return [card_points(kind, facts, land) for kind in range(KINDS)]


def top_pair(values: list[int], hand: list[int]) -> int:
    """The best one or two cards of ``hand`` at ``values``: the policy's ``best_pair``, faster."""
    first = second = 0
    for kind, count in enumerate(hand):
        if count:
            value = values[kind]
            if value > first:
                first, second = value, (first if count == 1 else value)
            elif value > second:
                second = value
    return first + second


def choose_wall(state: State, seat: int, closers: Closers, rng: random.Random) -> ms.Wall:
    """Close the city that pays the seat best when it beats the land; else a wall closing nothing."""
    lines = closers.of(state)
    best, best_value = -1, LAND_WEIGHT * top_pair(kind_values(state, None), state.hands[seat])
    for line in lines:
        settled = _settled_city(state, line)
        if settled.phase != SCORE:
            continue
        values = kind_values(settled, settled.scored_city)
        others = [top_pair(values, hand) for s, hand in enumerate(settled.hands) if s != seat]
        value = top_pair(values, settled.hands[seat]) - OPPONENT_WEIGHT * sum(others) / len(others)
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
        value = top_pair(kind_values(copy, copy.scored_city), copy.hands[seat])
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


def hand_worth(hand: list[int], land_values: list[int]) -> float:
    """What the best few kept cards of ``hand`` can be expected to score later."""
    values = []
    for kind, count in enumerate(hand):
        if count:
            card = CARDS[kind]
            if card.about_city:
                worth = CITY_CARD_WORTH.get(card.rule, DEFAULT_CITY_CARD_WORTH)
            else:
                worth = float(land_values[kind])
            values += [worth] * count
    values.sort(reverse=True)
    return sum(values[:HAND_COUNTED])


def evaluate(state: State, seat: int) -> float:
    """The seat's margin over the average other seat: points, plus kept cards' expected worth."""
    if state.is_terminal():
        worth = [float(p) for p in state.points]
    else:
        land_values = kind_values(state, None)
        worth = [
            p + HAND_WEIGHT * hand_worth(h, land_values)
            for p, h in zip(state.points, state.hands, strict=True)
        ]
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
