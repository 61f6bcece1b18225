"""The game state: whose turn, which decision is pending, and how actions change it.

Modelled on OpenSpiel's State: the current player is a seat, :data:`CHANCE` or
:data:`TERMINAL`. Dice are chance outcomes the caller draws from its own RNG and
applies as :class:`Roll` steps, so a game re-simulates exactly from its steps.
``apply`` checks every rule and raises :class:`IllegalActionError` naming the
broken one; ``apply_unchecked`` trusts its caller, for search.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from . import rules
from .actions import (
    Action,
    Choose,
    Keep,
    Place,
    PlaceChurch,
    PlaceCrates,
    PlaceLogs,
    PlacePerson,
    PlaceWalls,
    Roll,
    Rotate,
    Step,
)
from .board import ADJACENT, OUTER, SIDE_MASKS, SPACES, squares_of
from .city import City
from .params import MAX_PLAYERS, MIN_PLAYERS, Params
from .phases import (
    ALL_DICE,
    BONUS,
    CHANCE,
    CHOOSE,
    DECISIONS,
    KEEP,
    OVER,
    PHASE_NAMES,
    PLACE,
    ROLL,
    ROTATE,
    TERMINAL,
)
from .pieces import (
    COIN_BONUS,
    DELIVERY_COST,
    HOUSE_VP,
    JUGGLER_VP_PER_TYPE,
    NOBLE_VP,
    NUM_DICE,
    PIRATE_STRENGTHS,
    ROLLS_PER_TURN,
    ROTATION_COST,
    SCORING_SYMBOLS,
    VP_BONUS,
    Decision,
    Person,
    ScorePart,
    Symbol,
)

_SYMBOLS = tuple(Symbol)


class PirateAttack(NamedTuple):
    """An attack: on which turn, its strength, and every seat's defence at that moment.

    A seat whose defence is below the strength lost a cannon, if it had one left.
    """

    turn: int
    strength: int
    defences: tuple[int, ...]


class State:
    """A Saint Malo game between 2-5 players. Create with :func:`new_game`."""

    __slots__ = (
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

    params: Params
    num_players: int
    cities: list[City]
    current: int  # seat whose turn it is
    phase: int
    turn: int  # turns completed so far
    dice: list[int]  # the five faces (Symbol values)
    rolls: int  # rolls made this turn
    to_roll: int  # dice rolled at the pending (or last) roll
    rotated: int  # dice turned this turn
    chosen: int  # chosen symbol, -1 before the choice
    bonus_persons: int  # bonus persons still to place this turn
    pirate_boxes: int
    attacks: tuple[PirateAttack, ...]
    ending: bool  # a city is full: the round is being played out

    # --- queries -------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to decide, or :data:`CHANCE` (dice to roll), or :data:`TERMINAL`."""
        if self.phase == ROLL:
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self.current

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or ``None`` at a chance node or the end."""
        return DECISIONS.get(self.phase)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == ROLL

    @property
    def round(self) -> int:
        """The current round, from 1."""
        return self.turn // self.num_players + 1

    @property
    def pirate_boxes_per_row(self) -> int:
        return 2 * self.num_players

    @property
    def attacks_made(self) -> int:
        return self.pirate_boxes // self.pirate_boxes_per_row

    @property
    def next_attack_strength(self) -> int | None:
        """Strength of the coming pirate attack, ``None`` after the sixth."""
        made = self.attacks_made
        return PIRATE_STRENGTHS[made] if made < len(PIRATE_STRENGTHS) else None

    def count(self, symbol: Symbol) -> int:
        """How many dice show ``symbol`` now."""
        return self.dice.count(symbol)

    def scores(self) -> list[int]:
        """Each seat's score as if the game ended now (final at a terminal state)."""
        return [city.final_score() for city in self.cities]

    def ranks(self) -> list[int]:
        """Competition ranks from 1: score, then more empty spaces; full ties share a rank."""
        keys = [(city.final_score(), city.empty_count) for city in self.cities]
        return [1 + sum(other > key for other in keys) for key in keys]

    def available_symbols(self) -> list[Symbol]:
        """Symbols the player to move could score, counting rotations they can pay for (R4)."""
        city = self.cities[self.current]
        dice = self.dice
        coins = city.coins
        can_rotate = dice.count(Symbol.SWORDS) < NUM_DICE and coins >= ROTATION_COST
        has_empty = city.filled != SPACES
        has_outer = bool(OUTER & ~city.filled)
        available = []
        for symbol in SCORING_SYMBOLS:
            showing = dice.count(symbol)
            if symbol is Symbol.LOG:
                ok = coins >= DELIVERY_COST + (0 if showing else ROTATION_COST) and (
                    showing > 0 or can_rotate
                )
            else:
                ok = (showing > 0 or can_rotate) and (has_outer if symbol is Symbol.WALL else has_empty)
            if ok:
                available.append(symbol)
        return available

    # --- chance --------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Roll, float]]:
        """Every ordered outcome of the pending roll with its probability."""
        rules.expect(self, ROLL, "a roll")
        count = self.to_roll.bit_count()
        probability = 1.0 / 6**count
        return [(Roll(faces), probability) for faces in itertools.product(_SYMBOLS, repeat=count)]

    def sample_chance(self, rng: random.Random) -> Roll:
        """A roll of the pending dice drawn from the caller's RNG."""
        rules.expect(self, ROLL, "a roll")
        return Roll(tuple([_SYMBOLS[rng.randrange(6)] for _ in range(self.to_roll.bit_count())]))

    # --- applying steps ------------------------------------------------------
    def apply(self, step: Step) -> None:
        """Apply an action or chance outcome after checking every rule."""
        rules.check(self, step)
        _APPLIERS[type(step)](self, step)

    def apply_unchecked(self, step: Step) -> None:
        """Apply a step known to be legal (e.g. drawn from :meth:`legal_actions`)."""
        _APPLIERS[type(step)](self, step)

    def clone(self) -> State:
        """An independent copy, cheap enough for search."""
        state = State.__new__(State)
        state.params, state.num_players = self.params, self.num_players
        state.cities = [city.copy() for city in self.cities]
        state.current, state.phase, state.turn = self.current, self.phase, self.turn
        state.dice = self.dice[:]
        state.rolls, state.to_roll, state.rotated = self.rolls, self.to_roll, self.rotated
        state.chosen, state.bonus_persons = self.chosen, self.bonus_persons
        state.pirate_boxes, state.attacks, state.ending = (
            self.pirate_boxes,
            self.attacks,
            self.ending,
        )
        return state

    # --- turn flow -----------------------------------------------------------
    def _start_turn(self) -> None:
        self.phase = ROLL
        self.rolls = 0
        self.to_roll = ALL_DICE
        self.rotated = 0
        self.chosen = -1
        self.bonus_persons = 0

    def _stop_rolling(self) -> None:
        if self.available_symbols():
            self.phase = CHOOSE
        else:
            _end_turn(self)

    def _after_place(self) -> None:
        if self.bonus_persons and self.cities[self.current].filled != SPACES:
            self.phase = BONUS
        else:
            self.bonus_persons = 0  # a bonus person with no free space is skipped (R4)
            _end_turn(self)

    # --- legal actions (see :mod:`~sdk.games.saint_malo.rules`) ---------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action for the pending decision (placements can number thousands)."""
        return list(rules.iter_legal_actions(self))

    def iter_legal_actions(self) -> Iterator[Action]:
        """Legal actions one at a time, without building a list."""
        return rules.iter_legal_actions(self)

    def sample_action(self, rng: random.Random) -> Action:
        """A legal action drawn uniformly from all legal actions, without listing placements."""
        return rules.sample_action(self, rng)

    def rotatable_dice(self) -> int:
        """Mask of the dice that may be turned to the chosen symbol (not swords, not showing it)."""
        chosen = self.chosen
        mask = 0
        for index, face in enumerate(self.dice):
            if face not in (chosen, Symbol.SWORDS):
                mask |= 1 << index
        return mask

    # --- serialisation -------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Compact plain-data form; :func:`State.from_json` restores it exactly."""
        return {
            "format": 1,
            "params": self.params.to_json(),
            "players": self.num_players,
            "turn": self.turn,
            "current": self.current,
            "phase": PHASE_NAMES[self.phase],
            "dice": list(self.dice),
            "rolls": self.rolls,
            "to_roll": self.to_roll,
            "rotated": self.rotated,
            "chosen": None if self.chosen < 0 else Symbol(self.chosen).name.lower(),
            "bonus_persons": self.bonus_persons,
            "pirate_boxes": self.pirate_boxes,
            "attacks": [[a.turn, a.strength, list(a.defences)] for a in self.attacks],
            "ending": self.ending,
            "cities": [city.to_json() for city in self.cities],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        if data.get("format") != 1:
            raise ValueError(f"unsupported Saint Malo state format {data.get('format')!r}")
        state = cls.__new__(cls)
        state.params = Params.from_json(data["params"])
        state.num_players = int(data["players"])
        state.cities = [City.from_json(c) for c in data["cities"]]
        if len(state.cities) != state.num_players:
            raise ValueError("one city per player is needed")
        state.turn, state.current = int(data["turn"]), int(data["current"])
        state.phase = PHASE_NAMES.index(data["phase"])
        state.dice = [int(Symbol(d)) for d in data["dice"]]
        state.rolls, state.to_roll = int(data["rolls"]), int(data["to_roll"])
        state.rotated = int(data["rotated"])
        chosen = data["chosen"]
        state.chosen = -1 if chosen is None else int(Symbol[chosen.upper()])
        state.bonus_persons = int(data["bonus_persons"])
        state.pirate_boxes = int(data["pirate_boxes"])
        state.attacks = tuple(PirateAttack(t, s, tuple(d)) for t, s, d in data["attacks"])
        state.ending = bool(data["ending"])
        return state

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: the whole public state (only future dice are unknown)."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} in a {self.num_players}-player game")
        return self.to_json()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<State players={self.num_players} round={self.round} seat={self.current} "
            f"phase={PHASE_NAMES[self.phase]} dice={[Symbol(d).name for d in self.dice]}>"
        )


def new_game(players: int = 4, params: Params | None = None) -> State:
    """A fresh game: seat 0 to move, all five dice about to be rolled (a chance node)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Saint Malo is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    params = params or Params()
    state = State.__new__(State)
    state.params, state.num_players = params, players
    state.cities = [City.new(params.start_crates_mask) for _ in range(players)]
    state.current, state.turn = 0, 0
    state.dice = [0] * NUM_DICE
    state.pirate_boxes, state.attacks, state.ending = 0, (), False
    state._start_turn()
    return state


# --- effects -------------------------------------------------------------------


def _apply_roll(state: State, step: Roll) -> None:
    dice = state.dice
    faces = iter(step.faces)
    for index in range(NUM_DICE):
        if state.to_roll >> index & 1:
            dice[index] = int(next(faces))
    state.rolls += 1
    if state.rolls < ROLLS_PER_TURN:
        state.phase = KEEP
    else:
        state._stop_rolling()


def _apply_keep(state: State, step: Keep) -> None:
    if step.reroll:
        state.to_roll = step.reroll
        state.phase = ROLL
    else:
        state._stop_rolling()


def _apply_choose(state: State, step: Choose) -> None:
    state.chosen = int(step.symbol)
    state.phase = ROTATE


def _apply_rotate(state: State, step: Rotate) -> None:
    if step.dice:
        state.cities[state.current].coins -= ROTATION_COST * step.dice.bit_count()
        for index in squares_of(step.dice):
            state.dice[index] = state.chosen
        state.rotated = step.dice
    state.phase = PLACE


def _apply_place(state: State, step: Place) -> None:
    city = state.cities[state.current]
    kind = type(step)
    if kind is PlaceCrates:
        assert isinstance(step, PlaceCrates)
        city.crates |= step.spaces
        city.filled |= step.spaces
    elif kind is PlaceWalls:
        assert isinstance(step, PlaceWalls)
        city.walls |= step.spaces
        city.filled |= step.spaces
        _grant_side_bonuses(state, city, step.spaces)
    elif kind is PlacePerson:
        assert isinstance(step, PlacePerson)
        _add_person(city, step)
    elif kind is PlaceChurch:
        assert isinstance(step, PlaceChurch)
        churches = list(city.churches)
        churches[step.size - 1] |= 1 << step.space
        city.churches = tuple(churches)
        city.filled |= 1 << step.space
    else:
        assert isinstance(step, PlaceLogs)
        city.coins -= DELIVERY_COST
        city.logs += step.count
    state._after_place()


def _apply_person_step(state: State, step: PlacePerson) -> None:
    if state.phase == BONUS:
        _add_person(state.cities[state.current], step)
        state.bonus_persons -= 1
        state._after_place()
    else:
        _apply_place(state, step)


def _grant_side_bonuses(state: State, city: City, new_walls: int) -> None:
    """Bonuses for sides the new walls complete, in side order (top, right, bottom, left)."""
    walls = city.walls
    for side, mask in enumerate(SIDE_MASKS):
        if new_walls & mask and walls & mask == mask:
            bonus = state.params.side_bonuses[side]
            if bonus == "person":
                state.bonus_persons += 1
            elif bonus == "coins":
                city.coins += COIN_BONUS
            else:
                city.score(ScorePart.WALL_BONUSES, VP_BONUS)


def _add_person(city: City, step: PlacePerson) -> None:
    person, space = step.person, step.space
    around = ADJACENT[space]
    if person == Person.CITIZEN:
        city.score(ScorePart.CITIZENS, 1)
    elif person == Person.PRIEST:
        churches = 0
        for mask in city.churches:
            churches |= mask
        city.score(ScorePart.PRIESTS, (churches & around).bit_count())
    elif person == Person.MERCHANT:
        city.coins += (city.crates & around).bit_count()
    elif person == Person.JUGGLER:
        city.score(ScorePart.JUGGLERS, JUGGLER_VP_PER_TYPE * city.adjacent_person_types(space))
    elif person == Person.NOBLE:
        city.score(ScorePart.NOBLES, NOBLE_VP)
    elif person == Person.ARCHITECT and step.houses:
        built = step.houses.bit_count()
        city.logs -= built
        city.houses |= step.houses
        city.filled |= step.houses
        city.score(ScorePart.HOUSES, HOUSE_VP * built)
    persons = list(city.persons)
    persons[person] |= 1 << space
    city.persons = tuple(persons)
    city.filled |= 1 << space


def _end_turn(state: State) -> None:
    """Swords, pirate attacks, the end-of-game check, then the next seat's roll."""
    swords = state.dice.count(Symbol.SWORDS)
    if swords:
        _mark_pirates(state, swords)
    if state.cities[state.current].filled == SPACES:
        state.ending = True
    state.turn += 1
    if state.ending and state.current == state.num_players - 1:
        state.phase = OVER
    else:
        state.current = (state.current + 1) % state.num_players
        state._start_turn()


def _mark_pirates(state: State, swords: int) -> None:
    per_row = state.pirate_boxes_per_row
    before = state.pirate_boxes
    after = min(before + swords, per_row * len(PIRATE_STRENGTHS))
    state.pirate_boxes = after
    for row in range(before // per_row, after // per_row):
        strength = PIRATE_STRENGTHS[row]
        defences = tuple(city.defence for city in state.cities)
        for city, defence in zip(state.cities, defences, strict=True):
            if defence < strength and city.cannons_lost < state.params.cannons:
                city.cannons_lost += 1
        state.attacks = (*state.attacks, PirateAttack(state.turn, strength, defences))


_APPLIERS: dict[type, Callable[[State, Any], None]] = {
    Roll: _apply_roll,
    Keep: _apply_keep,
    Choose: _apply_choose,
    Rotate: _apply_rotate,
    PlaceLogs: _apply_place,
    PlaceCrates: _apply_place,
    PlaceWalls: _apply_place,
    PlaceChurch: _apply_place,
    PlacePerson: _apply_person_step,
}
