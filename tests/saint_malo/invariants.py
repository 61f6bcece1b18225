"""Independent invariant checks for Saint Malo states, steps and finished games.

Geometry, scoring and legality are recomputed here from the binding rulings
with this module's own code (no engine tables such as ``ADJACENT`` or the shape
lists), so a mistake shared by the engine's generator and checker cannot hide.
Every check raises ``AssertionError`` with a message naming what broke.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sdk.games import saint_malo as sm

P = sm.Person
S = sm.Symbol
Part = sm.ScorePart

# --- own geometry (ruling R1) --------------------------------------------------------------------------

_CORNERS = frozenset({(0, 0), (0, 6), (6, 0), (6, 6)})


def _bit(row: int, col: int) -> int:
    return 1 << (row * 7 + col)


def _cells(predicate: Callable[[int, int], bool]) -> int:
    return sum(_bit(r, c) for r in range(7) for c in range(7) if (r, c) not in _CORNERS and predicate(r, c))


SPACES_REF = _cells(lambda r, c: True)
INNER_REF = _cells(lambda r, c: 1 <= r <= 5 and 1 <= c <= 5)
OUTER_REF = SPACES_REF & ~INNER_REF
#: top, right, bottom, left, as in ruling R1.
SIDES_REF: tuple[int, ...] = (
    _cells(lambda r, c: r == 0),
    _cells(lambda r, c: c == 6),
    _cells(lambda r, c: r == 6),
    _cells(lambda r, c: c == 0),
)
PIRATE_STRENGTHS_REF = (1, 3, 6, 8, 10, 12)
SERIES_VP_REF = (0, 1, 4, 8, 13, 20)
LEVEL_REF = {
    P.CITIZEN: 1,
    P.SOLDIER: 2,
    P.PRIEST: 2,
    P.ARCHITECT: 3,
    P.MERCHANT: 3,
    P.JUGGLER: 4,
    P.NOBLE: 5,
}
SCORING_REF = (S.LOG, S.CRATE, S.WALL, S.CROSS, S.HEAD)
_ALL_PARTS: tuple[sm.ScorePart, ...] = tuple(Part)
_IN_PLAY_PARTS = _ALL_PARTS[: Part.FULL_CITY]


def bits(mask: int) -> list[int]:
    """Square (or die) indices set in ``mask``."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _around(space: int, steps: tuple[tuple[int, int], ...]) -> int:
    row, col = divmod(space, 7)
    mask = 0
    for d_row, d_col in steps:
        r, c = row + d_row, col + d_col
        if 0 <= r < 7 and 0 <= c < 7:
            mask |= _bit(r, c)
    return mask & SPACES_REF


_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
_ROOK = ((-1, 0), (1, 0), (0, -1), (0, 1))


_ADJACENT_REF: tuple[int, ...] = tuple(_around(space, _KING) for space in range(49))
_ORTHOGONAL_REF: tuple[int, ...] = tuple(_around(space, _ROOK) for space in range(49))


def adjacent_ref(space: int) -> int:
    """The up to 8 spaces around ``space`` (diagonals included)."""
    return _ADJACENT_REF[space]


def connected_ref(mask: int) -> bool:
    """Whether a non-empty mask is one orthogonally connected group."""
    if not mask:
        return False
    start = bits(mask)[0]
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        for there in bits(_ORTHOGONAL_REF[here] & mask):
            if there not in seen:
                seen.add(there)
                todo.append(there)
    return len(seen) == mask.bit_count()


def complete_sides_ref(walls: int) -> list[int]:
    """Indices of the sides whose five spaces all hold walls."""
    return [side for side, mask in enumerate(SIDES_REF) if walls & mask == mask]


# --- own scoring (ruling R6) ---------------------------------------------------------------------------


def church_series_ref(counts: list[int]) -> int:
    """Church series points, by a closed form of the R6 greedy.

    Series ``i`` (from 0) reaches size ``m`` exactly when every size ``1..m`` has more than ``i``
    churches, so its length is the longest prefix of ``counts`` whose entries all exceed ``i``.
    """
    points = 0
    for i in range(counts[0] if counts else 0):
        length = 0
        while length < len(counts) and counts[length] > i:
            length += 1
        points += SERIES_VP_REF[length]
    return points


def ranks_ref(scores: list[int], empties: list[int]) -> list[int]:
    """Competition ranks: higher score first, then more empty spaces; full ties share a rank."""
    ranks = []
    for me, (score, empty) in enumerate(zip(scores, empties, strict=True)):
        better = sum(
            1
            for other, (s, e) in enumerate(zip(scores, empties, strict=True))
            if other != me and (s > score or (s == score and e > empty))
        )
        ranks.append(1 + better)
    return ranks


def final_parts_ref(city: sm.City) -> dict[sm.ScorePart, int]:
    """The end-of-game additions recomputed from the board and stock."""
    return {
        Part.FULL_CITY: 5 if city.filled == SPACES_REF else 0,
        Part.COINS: city.coins // 2,
        Part.LOGS: city.logs,
        Part.CHURCHES: church_series_ref([m.bit_count() for m in city.churches]),
        Part.CANNONS: -5 * city.cannons_lost,
    }


# --- snapshots -----------------------------------------------------------------------------------------


_CITY_SLOTS = (
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
_STATE_SLOTS = (
    "attacks",
    "bonus_persons",
    "chosen",
    "cities",
    "current",
    "dice",
    "ending",
    "num_players",
    "params",
    "phase",
    "pirate_boxes",
    "rolls",
    "rotated",
    "to_roll",
    "turn",
)
# The snapshots below spell the slots out for speed; a new slot must be added to them.
assert tuple(sorted(sm.City.__slots__)) == _CITY_SLOTS, "City gained a slot: extend _city_snapshot"
assert tuple(sorted(sm.State.__slots__)) == _STATE_SLOTS, "State gained a slot: extend snapshot"


def _city_snapshot(c: sm.City) -> tuple[Any, ...]:
    return (
        c.cannons_lost,
        c.churches,
        c.coins,
        c.crates,
        c.filled,
        c.houses,
        c.logs,
        tuple(c.parts),
        c.persons,
        c.vp,
        c.walls,
    )


def snapshot(state: sm.State) -> tuple[Any, ...]:
    """Every slot of the state and its cities, read directly (not through ``to_json``)."""
    return (
        state.attacks,
        state.bonus_persons,
        state.chosen,
        tuple(_city_snapshot(c) for c in state.cities),
        state.current,
        tuple(state.dice),
        state.ending,
        state.num_players,
        state.params,
        state.phase,
        state.pirate_boxes,
        state.rolls,
        state.rotated,
        state.to_roll,
        state.turn,
    )


@dataclass
class CityView:
    """The parts of a city one step may change, in plain mutable form."""

    walls: int
    crates: int
    houses: int
    churches: list[int]
    persons: list[int]
    coins: int
    logs: int
    parts: list[int]

    @classmethod
    def of(cls, city: sm.City) -> CityView:
        return cls(
            city.walls,
            city.crates,
            city.houses,
            list(city.churches),
            list(city.persons),
            city.coins,
            city.logs,
            list(city.parts),
        )

    @property
    def filled(self) -> int:
        mask = self.walls | self.crates | self.houses
        for m in (*self.churches, *self.persons):
            mask |= m
        return mask


# --- the state on its own ------------------------------------------------------------------------------


def check_city(city: sm.City, params: sm.Params, where: str) -> None:
    """Board, stock and score invariants of one city."""
    masks = [city.walls, city.crates, city.houses, *city.churches, *city.persons]
    assert len(city.churches) == 5 and len(city.persons) == 7, where
    union = 0
    for mask in masks:
        assert mask >= 0, where
        assert not union & mask, f"{where}: space(s) {bits(union & mask)} hold two items"
        union |= mask
    assert union == city.filled, f"{where}: filled {city.filled:#x} != union of items {union:#x}"
    assert not city.filled & ~SPACES_REF, (
        f"{where}: items off the 45 spaces: {bits(city.filled & ~SPACES_REF)}"
    )
    assert not city.walls & ~OUTER_REF, f"{where}: walls on inner spaces {bits(city.walls & ~OUTER_REF)}"
    assert params.start_crates_mask & ~city.crates == 0, f"{where}: a starting crate is gone"
    assert city.empty_count == 45 - city.filled.bit_count() >= 0, where
    assert city.is_full == (city.filled == SPACES_REF), where
    assert city.coins >= 0, f"{where}: coins {city.coins} < 0"
    assert city.logs >= 0, f"{where}: logs {city.logs} < 0"
    assert 0 <= city.cannons_lost <= params.cannons, f"{where}: cannons lost {city.cannons_lost}"

    # The VP track is the sum of the in-play parts, each recomputed where the board determines it.
    parts = city.parts
    assert len(parts) == len(Part), where
    assert city.vp == sum(parts), f"{where}: vp {city.vp} != sum of parts {parts}"
    assert all(p == 0 for p in parts[Part.FULL_CITY :]), f"{where}: end parts scored in play: {parts}"
    assert all(p >= 0 for p in parts), f"{where}: negative in-play part {parts}"
    assert parts[Part.CITIZENS] == city.persons[P.CITIZEN].bit_count(), f"{where}: citizens {parts}"
    assert parts[Part.NOBLES] == 7 * city.persons[P.NOBLE].bit_count(), f"{where}: nobles {parts}"
    assert parts[Part.HOUSES] == 3 * city.houses.bit_count(), f"{where}: houses {parts}"
    wall_vp = 3 * sum(1 for side in complete_sides_ref(city.walls) if params.side_bonuses[side] == "vp")
    assert parts[Part.WALL_BONUSES] == wall_vp, (
        f"{where}: wall bonuses {parts[Part.WALL_BONUSES]} != {wall_vp}"
    )
    # Priests and jugglers only count what stood there when they came, and items never leave.
    if parts[Part.PRIESTS]:
        churches = 0
        for mask in city.churches:
            churches |= mask
        cap = sum((churches & adjacent_ref(s)).bit_count() for s in bits(city.persons[P.PRIEST]))
        assert parts[Part.PRIESTS] <= cap, f"{where}: priests {parts[Part.PRIESTS]} > {cap}"
    if parts[Part.JUGGLERS]:
        cap = sum(
            2 * sum(1 for m in city.persons if m & adjacent_ref(s)) for s in bits(city.persons[P.JUGGLER])
        )
        assert parts[Part.JUGGLERS] % 2 == 0, where
        assert parts[Part.JUGGLERS] <= cap, f"{where}: jugglers {parts[Part.JUGGLERS]} > {cap}"

    soldiers = city.persons[P.SOLDIER].bit_count()
    assert city.defence == soldiers + 2 * len(complete_sides_ref(city.walls)), f"{where}: defence"

    breakdown = city.score_breakdown()
    assert len(breakdown) == len(_ALL_PARTS), f"{where}: breakdown keys {sorted(breakdown)}"
    assert sum(breakdown.values()) == city.final_score(), f"{where}: breakdown does not add up"
    for part, value in final_parts_ref(city).items():
        assert breakdown[part] == value, f"{where}: {part.name} is {breakdown[part]}, recomputed {value}"
    for part in _IN_PLAY_PARTS:
        assert breakdown[part] == parts[part], f"{where}: breakdown {part.name}"


def check_state(state: sm.State, seats: Iterable[int] | None = None, *, ranks: bool = True) -> None:
    """Every invariant that must hold of any reachable state.

    ``seats`` limits the per-city checks to those cities (when the others are known unchanged);
    ``ranks=False`` skips comparing scores and ranks with this module's own ranking.
    """
    n = state.num_players
    assert 2 <= n <= 5 and len(state.cities) == n
    for seat in range(n) if seats is None else seats:
        check_city(state.cities[seat], state.params, f"seat {seat}")

    if ranks:
        scores = state.scores()
        assert scores == [c.final_score() for c in state.cities]
        empties = [c.empty_count for c in state.cities]
        assert state.ranks() == ranks_ref(scores, empties), f"ranks {state.ranks()} for {scores} / {empties}"

    # Pirate track (ruling R5).
    per_row = 2 * n
    assert state.pirate_boxes_per_row == per_row
    assert 0 <= state.pirate_boxes <= 6 * per_row, f"pirate boxes {state.pirate_boxes}"
    made = state.pirate_boxes // per_row
    assert len(state.attacks) == made == state.attacks_made, f"{len(state.attacks)} attacks, {made} rows"
    assert tuple(a.strength for a in state.attacks) == PIRATE_STRENGTHS_REF[:made]
    assert state.next_attack_strength == (PIRATE_STRENGTHS_REF[made] if made < 6 else None)
    turns = [a.turn for a in state.attacks]
    assert turns == sorted(turns) and all(0 <= t < state.turn for t in turns), f"attack turns {turns}"
    for seat, city in enumerate(state.cities):
        beaten = sum(1 for a in state.attacks if a.defences[seat] < a.strength)
        expected = min(state.params.cannons, beaten)
        assert city.cannons_lost == expected, f"seat {seat}: cannons lost {city.cannons_lost} != {expected}"

    # Turn bookkeeping: seat 0 starts and seats take turns in order.
    assert len(state.dice) == 5 and all(0 <= d <= 5 for d in state.dice), f"dice {state.dice}"
    assert state.round == state.turn // n + 1
    full = any(c.is_full for c in state.cities)
    assert state.ending == full, f"ending={state.ending} but full cities: {full}"
    if state.is_terminal():
        assert state.current_player == sm.TERMINAL and state.decision is None
        assert state.current == n - 1 and state.turn % n == 0, f"ended at turn {state.turn}"
        assert full, "the game ended with no full city"
        return
    assert state.current == state.turn % n, f"seat {state.current} moves at turn {state.turn}"
    decision = state.decision
    if state.is_chance_node():
        assert state.current_player == sm.CHANCE and decision is None
        assert 0 <= state.rolls <= 2 and 0 < state.to_roll <= 31
        if state.rolls == 0:
            assert state.to_roll == 31 and state.chosen == -1 and state.bonus_persons == 0
        return
    assert state.current_player == state.current and decision is not None
    city = state.cities[state.current]
    if decision is sm.Decision.KEEP:
        assert state.rolls in (1, 2) and state.chosen == -1
    elif decision is sm.Decision.CHOOSE:
        assert state.available_symbols(), "a choose decision with nothing available"
        assert state.chosen == -1
    elif decision in (sm.Decision.ROTATE, sm.Decision.PLACE):
        assert state.chosen in SCORING_REF, f"chosen {state.chosen}"
        if decision is sm.Decision.PLACE:
            assert state.count(S(state.chosen)) >= 1, "placing with no die showing the symbol"
            if state.chosen == S.LOG:
                assert city.coins >= 2, "a log delivery pending without 2 coins"
            else:
                room = OUTER_REF if state.chosen == S.WALL else SPACES_REF
                assert room & ~city.filled, "a placement pending with no room for it"
    else:
        assert decision is sm.Decision.BONUS_PERSON
        assert state.bonus_persons >= 1 and not city.is_full


# --- one step ------------------------------------------------------------------------------------------


def _dice_after_roll(before: sm.State, roll: sm.Roll) -> list[int]:
    dice = list(before.dice)
    faces = iter(roll.faces)
    for die in bits(before.to_roll):
        dice[die] = int(next(faces))
    return dice


def expected_city(before: sm.State, step: sm.Step) -> tuple[CityView, int]:
    """The mover's city after ``step`` by this module's reading of R4, and bonus persons earned."""
    city = before.cities[before.current]
    view = CityView.of(city)
    bonus = 0
    if isinstance(step, sm.Rotate):
        view.coins -= 2 * step.dice.bit_count()
    elif isinstance(step, sm.PlaceLogs):
        view.coins -= 2
        view.logs += step.count
    elif isinstance(step, sm.PlaceCrates):
        view.crates |= step.spaces
    elif isinstance(step, sm.PlaceWalls):
        view.walls |= step.spaces
        for side in complete_sides_ref(view.walls):
            if not SIDES_REF[side] & step.spaces:
                continue  # completed on an earlier turn
            kind = before.params.side_bonuses[side]
            if kind == "coins":
                view.coins += 2
            elif kind == "vp":
                view.parts[Part.WALL_BONUSES] += 3
            else:
                bonus += 1
    elif isinstance(step, sm.PlaceChurch):
        view.churches[step.size - 1] |= 1 << step.space
    elif isinstance(step, sm.PlacePerson):
        around = adjacent_ref(step.space)
        person = P(step.person)
        if person is P.CITIZEN:
            view.parts[Part.CITIZENS] += 1
        elif person is P.PRIEST:
            churches = 0
            for mask in view.churches:
                churches |= mask
            view.parts[Part.PRIESTS] += (churches & around).bit_count()
        elif person is P.MERCHANT:
            view.coins += (view.crates & around).bit_count()
        elif person is P.JUGGLER:
            view.parts[Part.JUGGLERS] += 2 * sum(1 for m in view.persons if m & around)
        elif person is P.NOBLE:
            view.parts[Part.NOBLES] += 7
        elif person is P.ARCHITECT:
            view.logs -= step.houses.bit_count()
            view.houses |= step.houses
            view.parts[Part.HOUSES] += 3 * step.houses.bit_count()
        view.persons[person] |= 1 << step.space
    return view, bonus


def check_transition(before: sm.State, step: sm.Step, after: sm.State) -> None:
    """What one applied step may and must change (``before`` is a clone taken just before it)."""
    n = before.num_players
    mover = before.current
    assert after.params == before.params and after.num_players == n

    # Nothing built is ever removed; tracks only move forward; only the mover builds.
    for seat, (old, new) in enumerate(zip(before.cities, after.cities, strict=True)):
        assert new.cannons_lost >= old.cannons_lost
        if seat != mover:
            same = CityView.of(old) == CityView.of(new)
            assert same, f"seat {seat} changed on seat {mover}'s {step!r}"
            continue
        for name, a, b in (
            ("filled", old.filled, new.filled),
            ("walls", old.walls, new.walls),
            ("crates", old.crates, new.crates),
            ("houses", old.houses, new.houses),
            *(("church", x, y) for x, y in zip(old.churches, new.churches, strict=True)),
            *(("person", x, y) for x, y in zip(old.persons, new.persons, strict=True)),
        ):
            assert a & ~b == 0, f"seat {seat}: {name} lost space(s) {bits(a & ~b)} on {step!r}"
        assert new.vp >= old.vp, f"seat {seat}: VP track fell {old.vp} -> {new.vp} on {step!r}"
        assert all(y >= x for x, y in zip(old.parts, new.parts, strict=True)), f"seat {seat}: a part fell"
    assert after.pirate_boxes >= before.pirate_boxes
    assert after.attacks[: len(before.attacks)] == before.attacks

    # The mover's city: exactly the effect of the step.
    view, bonus = expected_city(before, step)
    got = CityView.of(after.cities[mover])
    assert got == view, f"seat {mover} after {step!r}:\n expected {view}\n got      {got}"
    assert after.cities[mover].filled == view.filled

    # Dice and the turn machine.
    turn_over = after.turn == before.turn + 1
    assert turn_over or after.turn == before.turn, f"turn {before.turn} -> {after.turn}"
    if isinstance(step, sm.Roll):
        assert before.is_chance_node()
        assert list(after.dice) == _dice_after_roll(before, step)
        if before.rolls < 2:
            assert after.decision is sm.Decision.KEEP and after.rolls == before.rolls + 1
    elif isinstance(step, sm.Keep):
        assert before.decision is sm.Decision.KEEP and after.dice == before.dice
        if step.reroll:
            assert after.is_chance_node() and after.to_roll == step.reroll and not turn_over
    elif isinstance(step, sm.Choose):
        assert before.decision is sm.Decision.CHOOSE and step.symbol in SCORING_REF
        assert after.decision is sm.Decision.ROTATE and after.chosen == step.symbol
    elif isinstance(step, sm.Rotate):
        assert before.decision is sm.Decision.ROTATE and after.decision is sm.Decision.PLACE
        for die in range(5):
            if step.dice >> die & 1:
                assert before.dice[die] not in (S.SWORDS, before.chosen), f"rotated die {die}"
                assert after.dice[die] == before.chosen
            else:
                assert after.dice[die] == before.dice[die]
    else:
        assert before.decision in (sm.Decision.PLACE, sm.Decision.BONUS_PERSON)
        assert after.dice == before.dice
        if before.decision is sm.Decision.BONUS_PERSON:
            assert isinstance(step, sm.PlacePerson) and LEVEL_REF[P(step.person)] <= 3
            pending = before.bonus_persons - 1
        else:
            pending = bonus
        if view.filled == SPACES_REF:
            pending = 0  # no free space: the bonus person is skipped
        assert turn_over == (pending == 0), f"pending bonus persons {pending}, turn over {turn_over}"
        if pending:
            assert after.decision is sm.Decision.BONUS_PERSON and after.bonus_persons == pending

    stopped = (isinstance(step, sm.Keep) and not step.reroll) or (
        isinstance(step, sm.Roll) and before.rolls == 2
    )
    if stopped and turn_over:
        # Rolling stopped and the turn scored nothing: no symbol may have had a legal use. (When the
        # player goes on to choose, the caller compares the available symbols at that decision.)
        data = before.to_json()
        data["phase"], data["dice"] = "choose", list(after.dice)
        usable = brute_available(sm.State.from_json(data))
        assert not usable, f"the turn scored nothing, but {sorted(usable)} had a legal use"
    elif stopped:
        assert after.decision is sm.Decision.CHOOSE

    # Swords and pirates at the end of a turn (ruling R5).
    if not turn_over:
        assert after.pirate_boxes == before.pirate_boxes and after.attacks == before.attacks
        assert after.ending == before.ending and after.current == mover
        return
    per_row = 2 * n
    swords = sum(1 for d in after.dice if d == S.SWORDS)
    boxes = min(before.pirate_boxes + swords, 6 * per_row)
    assert after.pirate_boxes == boxes, f"pirate boxes {after.pirate_boxes}, expected {boxes}"
    new_attacks = after.attacks[len(before.attacks) :]
    assert len(new_attacks) == boxes // per_row - before.pirate_boxes // per_row
    defences = tuple(
        c.persons[P.SOLDIER].bit_count() + 2 * len(complete_sides_ref(c.walls)) for c in after.cities
    )
    for attack in new_attacks:
        assert attack.turn == before.turn and attack.defences == defences, f"attack {attack}"
    for seat, (old, new) in enumerate(zip(before.cities, after.cities, strict=True)):
        lost = sum(1 for a in new_attacks if defences[seat] < a.strength)
        expected = min(before.params.cannons, old.cannons_lost + lost)
        assert new.cannons_lost == expected, f"seat {seat}: cannons {new.cannons_lost} != {expected}"
    assert after.ending == (before.ending or after.cities[mover].is_full)
    if after.is_terminal():
        assert after.ending and mover == n - 1
    else:
        assert after.current == (mover + 1) % n and after.is_chance_node()
        assert after.rolls == 0 and after.to_roll == 31


# --- legality oracles ----------------------------------------------------------------------------------


def _first(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def brute_available(state: sm.State) -> set[sm.Symbol]:
    """Symbols with a legal use, found by trying choices through the checked ``apply``.

    A use with ``k`` rotated dice implies one with at most one rotation and one die used, so trying
    ``Rotate(0)``, each single-die rotation and one single-item placement is enough.
    """
    usable: set[sm.Symbol] = set()
    city = state.cities[state.current]
    empty = SPACES_REF & ~city.filled
    for symbol in SCORING_REF:
        chosen = state.clone()
        chosen.apply_unchecked(sm.Choose(symbol))  # bypasses the availability check on purpose
        uses: list[sm.Place]
        if symbol is S.LOG:
            uses = [sm.PlaceLogs(1)]
        elif symbol is S.WALL:
            uses = [sm.PlaceWalls(1 << _first(empty & OUTER_REF))] if empty & OUTER_REF else []
        elif not empty:
            uses = []
        elif symbol is S.CRATE:
            uses = [sm.PlaceCrates(1 << _first(empty))]
        elif symbol is S.CROSS:
            uses = [sm.PlaceChurch(_first(empty), 1)]
        else:
            uses = [sm.PlacePerson(P.CITIZEN, _first(empty))]
        if any(
            _accepts(chosen, [sm.Rotate(rotation), use]) for rotation in (0, 1, 2, 4, 8, 16) for use in uses
        ):
            usable.add(symbol)
    return usable


def _accepts(state: sm.State, steps: list[sm.Step]) -> bool:
    """Whether the checked ``apply`` takes all of ``steps`` in turn (on a clone)."""
    trial = state.clone()
    try:
        for step in steps:
            trial.apply(step)
    except sm.IllegalActionError:
        return False
    return True


def accepted_subset(state: sm.State, actions: Iterable[sm.Action]) -> set[sm.Action]:
    """The actions the checked ``apply`` accepts from ``state`` (a rejection must not mutate)."""
    accepted: set[sm.Action] = set()
    trial = state.clone()
    for action in actions:
        try:
            trial.apply(action)
        except sm.IllegalActionError:
            continue
        accepted.add(action)
        trial = state.clone()
    return accepted


def oracle_place_legal(state: sm.State, action: sm.Action) -> bool:
    """Ruling R4 placement legality, written independently of the engine's checker and generator."""
    decision = state.decision
    city = state.cities[state.current]
    empty = SPACES_REF & ~city.filled
    if decision is sm.Decision.BONUS_PERSON:
        if not isinstance(action, sm.PlacePerson) or LEVEL_REF.get(P(action.person), 9) > 3:
            return False
        return _person_ok(city, action, empty)
    if decision is not sm.Decision.PLACE:
        return False
    symbol = S(state.chosen)
    showing = sum(1 for d in state.dice if d == symbol)

    def dice_ok(used: int) -> bool:
        return 1 <= used <= showing

    if symbol is S.LOG:
        return isinstance(action, sm.PlaceLogs) and dice_ok(action.count) and city.coins >= 2
    if symbol is S.CRATE:
        if not isinstance(action, sm.PlaceCrates):
            return False
        spaces = action.spaces
        return dice_ok(spaces.bit_count()) and spaces & ~empty == 0 and connected_ref(spaces)
    if symbol is S.WALL:
        if not isinstance(action, sm.PlaceWalls):
            return False
        return dice_ok(action.spaces.bit_count()) and action.spaces & ~(empty & OUTER_REF) == 0
    if symbol is S.CROSS:
        if not isinstance(action, sm.PlaceChurch):
            return False
        return dice_ok(action.size) and 0 <= action.space < 49 and bool(empty >> action.space & 1)
    if not isinstance(action, sm.PlacePerson) or action.person not in LEVEL_REF:
        return False
    return dice_ok(LEVEL_REF[P(action.person)]) and _person_ok(city, action, empty)


def _person_ok(city: sm.City, action: sm.PlacePerson, empty: int) -> bool:
    if not (0 <= action.space < 49 and empty >> action.space & 1):
        return False
    houses = action.houses
    if not houses:
        return True
    if action.person != P.ARCHITECT or houses.bit_count() > min(3, city.logs):
        return False
    if houses & ~empty or houses >> action.space & 1:
        return False
    return connected_ref(houses) and bool(houses & adjacent_ref(action.space))


# --- candidates around the legal set, for checker/generator agreement --------------------------------


def _grow(rng: random.Random, start: int, size: int, allowed: int) -> int:
    """A random orthogonally connected group grown from ``start`` inside ``allowed``."""
    group = 1 << start
    for _ in range(size - 1):
        border = 0
        for space in bits(group):
            border |= _ORTHOGONAL_REF[space]
        options = bits(border & allowed & ~group)
        if not options:
            break
        group |= 1 << rng.choice(options)
    return group


def candidate_actions(state: sm.State, rng: random.Random, count: int = 200) -> Iterator[sm.Action]:
    """Legal-looking and illegal placements for the pending PLACE / BONUS_PERSON decision."""
    city = state.cities[state.current]
    empty = bits(SPACES_REF & ~city.filled)
    every = list(range(49))
    yield from (sm.PlaceLogs(n) for n in range(7))
    yield from (sm.PlaceChurch(s, size) for s in every for size in (0, 1, 2, 5, 6))
    yield from (sm.PlacePerson(p, s) for p in P for s in every)
    yield from (sm.PlaceChurch(-1, 1), sm.PlaceChurch(49, 1), sm.PlacePerson(P.CITIZEN, 49))
    yield from (sm.PlaceCrates(1 << 49), sm.PlaceWalls(1 << 0), sm.PlaceWalls(0), sm.PlaceCrates(0))
    for _ in range(count):
        near_all = rng.random() < 0.2
        pool = every if near_all or not empty else empty
        start = rng.choice(pool)
        size = rng.randint(1, 6)
        allowed = (1 << 49) - 1 if near_all else SPACES_REF & ~city.filled
        group = _grow(rng, start, size, allowed)
        yield sm.PlaceCrates(group)
        loose = sum(1 << s for s in rng.sample(pool, min(len(pool), size)))
        yield sm.PlaceCrates(loose)
        yield sm.PlaceWalls(loose & (OUTER_REF if rng.random() < 0.7 else -1))
        yield sm.PlaceWalls(sum(1 << s for s in rng.sample(bits(OUTER_REF), size)))
        architect_at = rng.choice(pool)
        houses_from = _first(adjacent_ref(architect_at)) if rng.random() < 0.5 else rng.choice(pool)
        yield sm.PlacePerson(P.ARCHITECT, architect_at, _grow(rng, houses_from, rng.randint(1, 4), allowed))
        yield sm.PlacePerson(rng.choice(list(P)), architect_at, group)


# --- round trips ---------------------------------------------------------------------------------------


def json_round_trip(state: sm.State) -> sm.State:
    """Restore ``state`` from its JSON text and check nothing was lost."""
    data = state.to_json()
    text = json.dumps(data)
    restored = sm.State.from_json(json.loads(text))
    direct = sm.State.from_json(data)
    for copy in (restored, direct):
        assert copy == state and copy.to_json() == data
        assert snapshot(copy) == snapshot(state), "from_json(to_json()) lost a field"
    assert json.dumps(restored.to_json()) == text
    return restored


def check_clone_independent(state: sm.State, rng: random.Random) -> None:
    """Mutating and advancing a clone leaves the original untouched, and vice versa."""
    data, snap = state.to_json(), snapshot(state)
    clone = state.clone()
    assert snapshot(clone) == snap
    clone.dice[0] = (clone.dice[0] + 1) % 6
    for city in clone.cities:
        city.coins += 7
        city.parts[0] += 1
        city.filled |= 1 << 0
    clone.attacks = (*clone.attacks, sm.PirateAttack(-1, 99, ()))
    assert state.to_json() == data and snapshot(state) == snap, "mutating a clone changed the original"
    clone = state.clone()
    for _ in range(rng.randint(1, 40)):
        if clone.is_terminal():
            break
        if clone.is_chance_node():
            clone.apply(clone.sample_chance(rng))
        else:
            clone.apply(clone.sample_action(rng))
    assert state.to_json() == data and snapshot(state) == snap, "advancing a clone changed the original"
    other = state.clone()
    other_snap = snapshot(other)
    for city in state.cities:
        city.coins += 1
    assert snapshot(other) == other_snap, "mutating the original changed a clone"
    for city in state.cities:
        city.coins -= 1
    assert snapshot(state) == snap


def check_step_json(step: sm.Step) -> None:
    """``step_to_json`` / ``step_from_json`` round-trip a step, also through JSON text."""
    data = sm.step_to_json(step)
    back = sm.step_from_json(json.loads(json.dumps(data)))
    assert back == step and type(back) is type(step), f"{step!r} came back as {back!r}"
    assert sm.step_to_json(back) == data


def check_final(state: sm.State, record: sm.GameRecord, *, replay: bool = True) -> None:
    """End-of-game facts, and that the record re-simulates the game exactly."""
    check_state(state)
    assert state.is_terminal(), "the game did not end"
    n = state.num_players
    assert state.turn % n == 0 and any(c.is_full for c in state.cities)
    assert sorted(state.ranks())[0] == 1
    assert len(record.steps) <= 12 * state.turn, "more steps than a turn can hold"
    if not replay:
        return
    replayed = sm.replay(record)
    assert snapshot(replayed) == snapshot(state), "replaying the record gave another game"
    text = json.dumps(record.to_json())
    loaded = sm.GameRecord.from_json(json.loads(text))
    assert loaded.players == record.players and loaded.params == record.params
    assert loaded.steps == record.steps and json.dumps(loaded.to_json()) == text
    assert snapshot(sm.replay(loaded)) == snapshot(state), "the JSON record replays differently"
