"""The greedy Masons policy: values its own hand against the board, one decision at a time.

- Cards: what each card in hand scores now (for the city being scored, or on the land);
  play the best pair when both are worth it, the best card when one is, else discard the
  weakest and draw two; in the final scoring play the best one or two, naming the best city.
- Walls, towers, houses and joins: each option is tried on a determinized copy of the game
  (the unseen cards dealt at random, the dice fixed at a neutral roll), and judged by what
  the hand would score afterwards: a city closed now is worth the best pair for it, less
  a part of what the others can be expected to score for it; otherwise the land cards count.
"""

from __future__ import annotations

import random

from sdk.games import masons as ms
from sdk.games.masons.cards import CARDS, KINDS
from sdk.games.masons.phases import CONNECT, HOUSES, ROLL, SCORE, TOWERS
from sdk.games.masons.scoring import LandFacts, card_points
from sdk.games.masons.state import State, unseen_cards

#: A card scoring at least this much now is played rather than kept.
PLAY_AT = 3
#: Opponent hands sampled to estimate what a closed city gives them.
OPPONENT_SAMPLES = 12
#: Weight of the land cards' current value when no city closes (they score later, if at all).
LAND_WEIGHT = 0.3
#: How much of what the others can be expected to score for a closed city counts against it.
OPPONENT_WEIGHT = 0.3
NEUTRAL_ROLL = ms.Roll(0, (5, 5))


def _values(state: State, hand: list[int] | tuple[int, ...], city: int | None) -> list[tuple[int, int]]:
    """(points now, card kind) for each card in ``hand``, best first, one entry per copy."""
    land = state.land()
    facts = None if city is None else state.city(city)
    values = [(card_points(k, facts, land), k) for k in range(KINDS) for _ in range(hand[k])]
    return sorted(values, reverse=True)


def best_pair(state: State, hand: list[int] | tuple[int, ...], city: int | None) -> int:
    values = _values(state, hand, city)
    return sum(v for v, _ in values[:2])


def _opponents_expect(state: State, seat: int, city: int, rng: random.Random) -> float:
    """What one other seat can be expected to score for ``city`` with a random hand."""
    pool = unseen_cards(state.hands[seat], state.discards)
    size = min(6, len(pool))
    if size == 0:
        return 0.0
    total = 0
    for _ in range(OPPONENT_SAMPLES):
        hand = [0] * KINDS
        for k in rng.sample(pool, size):
            hand[k] += 1
        total += best_pair(state, hand, city)
    return total / OPPONENT_SAMPLES


def _settle(state: State) -> State:
    """Play a copy on to the end of the turn's building: neutral dice, first options."""
    if state.is_chance_node() and state.roll is None and state.phase == ROLL:
        state.apply_unchecked(NEUTRAL_ROLL)
    while not state.is_terminal() and not state.is_chance_node() and state.phase in (TOWERS, HOUSES):
        state.apply_unchecked(state.legal_actions()[0])
    return state


def outlook(state: State, seat: int, rng: random.Random) -> float:
    """How good the position looks for ``seat``'s hand (a closed city counts now)."""
    hand = state.hands[seat]
    if state.phase == CONNECT:
        options = state.legal_actions()
        return max(outlook(_after(state, a), seat, rng) for a in options)
    if state.phase == SCORE and state.scored_city >= 0:
        mine = best_pair(state, hand, state.scored_city)
        others = _opponents_expect(state, seat, state.scored_city, rng)
        return mine - OPPONENT_WEIGHT * others
    return LAND_WEIGHT * best_pair(state, hand, None)


def _after(state: State, action: ms.Action) -> State:
    copy = state.clone()
    copy.apply_unchecked(action)
    return copy


def ranked_builds(state: State, seat: int, rng: random.Random) -> list[ms.Action]:
    """The legal walls, towers, houses or joins, best outlook first (ties in legal order)."""
    actions = state.legal_actions()
    values = [outlook(_settle(_after(state, action)), seat, rng) for action in actions]
    order = sorted(range(len(actions)), key=lambda n: -values[n])
    return [actions[n] for n in order]


def choose_build(state: State, seat: int, rng: random.Random) -> ms.Action:
    """The wall, towers, houses or join that leaves the best outlook."""
    return ranked_builds(state, seat, rng)[0]


def choose_score(state: State, seat: int) -> ms.Score:
    hand = state.hands[seat]
    values = _values(state, hand, state.scored_city)
    (top, first), rest = values[0], values[1:]
    if top >= PLAY_AT:
        if rest and rest[0][0] >= PLAY_AT:
            return ms.Score(tuple(sorted((first, rest[0][1]))))
        return ms.Score((first,))
    if top > 0 and not rest:
        return ms.Score((first,))
    land = state.land()
    worst = min(range(KINDS), key=lambda k: (hand[k] == 0, keep_value(k, land)))
    return ms.Score((worst,), discard=True)


def keep_value(card: int, land: LandFacts) -> float:
    """A card's worth kept: its land value now, or a city card's typical worth."""
    if CARDS[card].about_city:
        return {"small_city": 4, "large_city": 2, "variety": 4}.get(CARDS[card].rule, 3)
    return card_points(card, None, land)


def choose_swap(state: State, seat: int) -> ms.Swap:
    hand = state.hands[seat]
    land = state.land()
    weak = [k for k in range(KINDS) for _ in range(hand[k]) if keep_value(k, land) < 2]
    return ms.Swap(tuple(weak))


def choose_final(state: State, seat: int) -> ms.FinalScore:
    best: ms.FinalScore = ms.FinalScore(None, ())
    best_value = 0
    cities: list[int | None] = list(range(len(state.cities))) or [None]
    for city in cities:
        for action in state.legal_actions():
            if not isinstance(action, ms.FinalScore) or action.city != city or not action.cards:
                continue
            value = sum(state.card_value(k, city) for k in action.cards)
            if value > best_value or (
                value == best_value and value > 0 and len(action.cards) < len(best.cards)
            ):
                best, best_value = action, value
    return best


def decide(observation: ms.Observation, rng: random.Random) -> ms.Action:
    """The greedy choice for the pending decision."""
    state = ms.determinize(observation, rng)
    seat = observation.seat
    kind = state.decision
    if kind == "score_cards":
        return choose_score(state, seat)
    if kind == "swap":
        return choose_swap(state, seat)
    if kind == "final_score":
        return choose_final(state, seat)
    return choose_build(state, seat, rng)


__all__ = [
    "best_pair",
    "choose_build",
    "choose_final",
    "choose_score",
    "choose_swap",
    "decide",
    "keep_value",
    "outlook",
    "ranked_builds",
]
