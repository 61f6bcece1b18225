"""The greedy reference bot: the best one-step plan under a hand-made evaluation.

For the dice in hand it builds candidate plans (symbol, rotations, placement),
plays each on a clone of the state, and keeps the plan whose resulting city
evaluates best. While rolling, it keeps the dice of its best plan's symbol and
rolls the others again. Deterministic: ties go to the first plan found.

    python -m bots.greedy --port 50051
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.board import ADJACENT, OUTER, SIDE_MASKS, SPACES
from sdk.games.saint_malo.bot import DecisionPolicy, PolicyBot
from sdk.games.saint_malo.shapes import GROUPS, HOUSES_NEAR
from sdk.serve import run

S = sm.Symbol
P = sm.Person

# Evaluation weights, in points of final score per unit.
COIN = 0.5
LOG = 1.2
SPACE_COST = 0.8  # a filled space brings the end nearer and is gone for later use
WALL_PROGRESS = 0.6  # per wall on a side that can still be completed
UNDEFENDED = 3.0  # defence below the coming attack
CANNON = 5.0
FULL_CITY = 5.0


def evaluate(state: sm.State, seat: int) -> float:
    """How good ``seat``'s position is, in points: score so far plus what the city promises."""
    city = state.cities[seat]
    value: float = city.vp + sm.church_series_points([m.bit_count() for m in city.churches])
    value += COIN * city.coins + LOG * city.logs - CANNON * city.cannons_lost
    value -= SPACE_COST * city.filled.bit_count()
    if city.is_full:
        value += FULL_CITY
    closed = city.destroyed_sides | city.complete_sides
    for side, mask in enumerate(SIDE_MASKS):
        if not closed >> side & 1:
            value += WALL_PROGRESS * (city.walls & mask).bit_count()
    strength = state.next_attack_strength
    if strength is not None and city.defence < strength:
        value -= UNDEFENDED
    return value


# --- candidate placements (cached on the city's masks) -------------------------------


def _side_of(space: int) -> int:
    return next((i for i, mask in enumerate(SIDE_MASKS) if mask >> space & 1), -1)


@lru_cache(maxsize=65536)
def _space_cost(filled: int, walls: int, space: int) -> float:
    """Harm of putting a non-wall on ``space``: it destroys an intact side."""
    side = _side_of(space)
    if side < 0:
        return 0.2
    mask = SIDE_MASKS[side]
    if filled & ~walls & mask:
        return 0.0  # already destroyed
    return 1.0 + (walls & mask).bit_count()


def _cheapest_space(city: sm.City) -> int:
    return min(sm.squares_of(city.empty), key=lambda s: (_space_cost(city.filled, city.walls, s), s))


def _best_next_to(city: sm.City, targets: int) -> int:
    return max(
        sm.squares_of(city.empty),
        key=lambda s: ((ADJACENT[s] & targets).bit_count(), -_space_cost(city.filled, city.walls, s), -s),
    )


@lru_cache(maxsize=65536)
def _best_crates(filled: int, walls: int, crates: int, size: int) -> int:
    """The group of ``size`` crates that leaves most room for merchants and harms no side."""
    best, best_value = 0, float("-inf")
    empty = SPACES & ~filled
    for group in GROUPS[size]:
        if group & filled:
            continue
        halo = 0
        harm = 0.0
        for space in sm.squares_of(group):
            halo |= ADJACENT[space]
            if OUTER >> space & 1:
                harm += _space_cost(filled, walls, space)
        value = (halo & empty & ~group).bit_count() + 0.5 * (halo & crates).bit_count() - 2 * harm
        if value > best_value:
            best, best_value = group, value
    return best


@lru_cache(maxsize=65536)
def _best_walls(filled: int, walls: int, count: int) -> tuple[int, ...]:
    """Wall masks of 1..count walls, filling the most advanced intact sides first."""
    destroyed = 0
    for side, mask in enumerate(SIDE_MASKS):
        if filled & ~walls & mask:
            destroyed |= 1 << side

    def priority(space: int) -> tuple[int, int]:
        side = _side_of(space)
        intact = not destroyed >> side & 1
        return (-(10 * intact + (walls & SIDE_MASKS[side]).bit_count()), space)

    order = sorted(sm.squares_of(OUTER & ~filled), key=priority)
    return tuple(sum(1 << s for s in order[:n]) for n in range(1, min(count, len(order)) + 1))


def _architect(city: sm.City) -> sm.PlacePerson:
    """Most houses, least harm."""
    near = HOUSES_NEAR[min(3, city.logs)]
    best = sm.PlacePerson(P.ARCHITECT, _cheapest_space(city))
    best_value = float("-inf")
    for space in sm.squares_of(city.empty):
        blocked = city.filled | 1 << space
        for houses in (0, *near[space]):
            if houses & blocked:
                continue
            harm = sum(_space_cost(city.filled, city.walls, s) for s in sm.squares_of(houses | 1 << space))
            value = 3 * houses.bit_count() - harm
            if value > best_value:
                best, best_value = sm.PlacePerson(P.ARCHITECT, space, houses), value
    return best


def person_placements(city: sm.City, max_level: int) -> list[sm.PlacePerson]:
    """One sensible placement per person type up to ``max_level``."""
    churches = persons = 0
    for mask in city.churches:
        churches |= mask
    for mask in city.persons:
        persons |= mask
    plans = []
    for person in P:
        if person.level > max_level:
            continue
        if person is P.PRIEST:
            plans.append(sm.PlacePerson(person, _best_next_to(city, churches)))
        elif person is P.MERCHANT:
            plans.append(sm.PlacePerson(person, _best_next_to(city, city.crates)))
        elif person is P.JUGGLER:
            space = max(sm.squares_of(city.empty), key=lambda s: (city.adjacent_person_types(s), -s))
            plans.append(sm.PlacePerson(person, space))
        elif person is P.ARCHITECT:
            plans.append(_architect(city))
        else:
            plans.append(sm.PlacePerson(person, _cheapest_space(city)))
    return plans


def candidate_placements(state: sm.State) -> list[sm.Place]:
    """A short list of sensible placements for the pending place decision."""
    city = state.cities[state.current]
    symbol = S(state.chosen)
    dice = state.count(symbol)
    if symbol is S.LOG:
        return [sm.PlaceLogs(dice)]
    if symbol is S.WALL:
        return [sm.PlaceWalls(m) for m in _best_walls(city.filled, city.walls, dice)]
    if symbol is S.CRATE:
        sizes = range(min(dice, city.empty_count, 5), 0, -1)
        groups = (_best_crates(city.filled, city.walls, city.crates, n) for n in sizes)
        return [sm.PlaceCrates(g) for g in groups if g]
    if symbol is S.CROSS:
        space = _cheapest_space(city)
        return [sm.PlaceChurch(space, size) for size in range(1, dice + 1)]
    return list(person_placements(city, dice))


# --- planning -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    value: float
    symbol: S
    rotate: int
    place: sm.Place


def _rotations(state: sm.State) -> list[sm.Rotate]:
    """One legal rotation per number of dice turned (the lowest dice)."""
    fewest: dict[int, sm.Rotate] = {}
    for action in state.iter_legal_actions():
        assert isinstance(action, sm.Rotate)
        count = action.dice.bit_count()
        if count not in fewest or action.dice < fewest[count].dice:
            fewest[count] = action
    return [fewest[n] for n in sorted(fewest)]


def _plans_after_choice(state: sm.State, seat: int) -> Iterator[Plan]:
    """Plans from a state awaiting the rotate decision."""
    symbol = S(state.chosen)
    for rotate in _rotations(state):
        rotated = state.clone()
        rotated.apply_unchecked(rotate)
        for placement in candidate_placements(rotated):
            after = rotated.clone()
            after.apply_unchecked(placement)
            yield Plan(evaluate(after, seat), symbol, rotate.dice, placement)


def best_plan(state: sm.State) -> Plan | None:
    """The best plan for the dice in hand (state awaiting keep or choose); None if none."""
    seat = state.current
    if state.decision is sm.Decision.KEEP:
        state = state.clone()
        state.apply_unchecked(sm.Keep(0))
        if state.decision is not sm.Decision.CHOOSE:
            return None  # nothing could be scored with these dice
    best: Plan | None = None
    for symbol in state.available_symbols():
        chosen = state.clone()
        chosen.apply_unchecked(sm.Choose(symbol))
        for plan in _plans_after_choice(chosen, seat):
            if best is None or plan.value > best.value:
                best = plan
    return best


class GreedyPolicy(DecisionPolicy):
    """Greedy decisions on a bare engine state (usable in-process as a policy)."""

    def keep(self, state: sm.State) -> sm.Keep:
        plan = best_plan(state)
        if plan is None:
            return sm.Keep(0b11111)
        return sm.Keep(sum(1 << i for i, face in enumerate(state.dice) if face != plan.symbol))

    def choose(self, state: sm.State) -> sm.Choose:
        plan = best_plan(state)
        assert plan is not None, "choose is only asked when a symbol is available"
        return sm.Choose(plan.symbol)

    def rotate(self, state: sm.State) -> sm.Rotate:
        plan = max(_plans_after_choice(state, state.current), key=lambda p: p.value)
        return sm.Rotate(plan.rotate)

    def place(self, state: sm.State) -> sm.Place:
        return self._best_of(state, candidate_placements(state))

    def bonus_person(self, state: sm.State) -> sm.PlacePerson:
        best = self._best_of(state, list(person_placements(state.cities[state.current], 3)))
        assert isinstance(best, sm.PlacePerson)
        return best

    @staticmethod
    def _best_of(state: sm.State, options: list[sm.Place]) -> sm.Place:
        seat = state.current

        def value(placement: sm.Place) -> float:
            after = state.clone()
            after.apply_unchecked(placement)
            return evaluate(after, seat)

        return max(options, key=value)


class GreedyBot(PolicyBot):
    name = "greedy"
    version = "1.0"
    author = "smtourney"

    def __init__(self) -> None:
        super().__init__(GreedyPolicy())


def main() -> None:
    run(GreedyBot())


if __name__ == "__main__":
    main()
