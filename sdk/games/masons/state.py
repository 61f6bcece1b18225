"""The Masons game state and its turn (rulings M2-M7): exact, fast, standard library only.

The state is one mutable object of small lists and bit masks (lines, spaces and points are
bits, see :mod:`~sdk.games.masons.board`), so a clone is cheap enough for search. Steps are
checked by :mod:`~sdk.games.masons.rules` and applied here; every forced step (a decision with
one option, a draw from the pile) is applied at once, so the state always rests at a decision,
a chance node or the end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sdk.games.errors import IllegalActionError

from . import rules
from .actions import Action, Connect, FinalScore, Houses, Roll, Score, Shuffle, Step, Swap, Towers, Wall
from .board import (
    ALL_LINES,
    EDGE_POINTS,
    LINE_SPACES,
    LINES,
    POINT_SPACES,
    POINTS,
    SPACE_NEIGHBOURS,
    SPACES,
    lines_within,
    points_of,
    spaces_of,
)
from .cards import COPIES, FULL_DECK, HAND_SIZE, KINDS, TOWER_DIE, WITHOUT_CITY
from .enclosure import completed_by
from .phases import (
    CHANCE,
    CONNECT,
    DECISION_PHASES,
    FINAL,
    HOUSES,
    OVER,
    PHASE_NAMES,
    ROLL,
    SCORE,
    SETUP,
    SWAP,
    TERMINAL,
    TOWERS,
    WALL,
)
from .pieces import house_options, tower_options
from .scoring import CityFacts, LandFacts, card_points, city_facts, land_facts

MIN_PLAYERS, MAX_PLAYERS = 2, 4
WALLS, TOWERS_PER_COLOUR, HOUSES_PER_COLOUR, PALACES_PER_COLOUR = 33, 10, 12, 3
INTERIOR_POINTS = ((1 << POINTS) - 1) & ~EDGE_POINTS


class City:
    """A completed city: its spaces, and the houses and palaces in it per colour."""

    __slots__ = ("houses", "palaces", "spaces")

    def __init__(self, spaces: int, houses: list[int], palaces: list[int]) -> None:
        self.spaces = spaces
        self.houses = houses
        self.palaces = palaces

    def copy(self) -> City:
        return City(self.spaces, list(self.houses), list(self.palaces))

    def to_json(self) -> dict[str, Any]:
        return {"spaces": self.spaces, "houses": list(self.houses), "palaces": list(self.palaces)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> City:
        return City(int(data["spaces"]), [int(h) for h in data["houses"]], [int(p) for p in data["palaces"]])


@dataclass(frozen=True, slots=True)
class Scoring:
    """What each seat scored in one scoring round (M6) of city ``city`` (then ``size`` spaces), or in
    the final scoring (M4: ``city`` -1)."""

    city: int
    size: int
    points: tuple[int, ...]

    def add(self, seat: int, points: int) -> Scoring:
        gained = list(self.points)
        gained[seat] += points
        return Scoring(self.city, self.size, tuple(gained))

    def to_json(self) -> list[Any]:
        return [self.city, self.size, list(self.points)]

    @staticmethod
    def from_json(data: list[Any]) -> Scoring:
        return Scoring(int(data[0]), int(data[1]), tuple(int(p) for p in data[2]))


class State:
    """A game of Masons between 2-4 seats; seat 0 starts."""

    n: int
    phase: int
    active: int  # whose turn it is
    turn: int  # the game's turn count, from 1
    queue: list[int]  # seats still to decide in a scoring round, swap or final scoring, next first
    walls: int  # lines holding a wall
    closed: int  # lines between two spaces of one completed city (no wall may go there)
    towers: list[int]  # per tower colour: mask of the points holding one
    houses: list[list[int]]  # per space: houses per colour on it (land only; a city keeps its own)
    city_of: list[int]  # per space: the index of its completed city, or -1
    cities: list[City]
    city_spaces: int  # every space in a completed city
    walls_left: int
    towers_left: list[int]
    houses_left: list[int]
    palaces_left: list[int]
    points: list[int]
    scorings: list[Scoring]  # every scoring round so far, then the final scoring; add up to points
    hands: list[list[int]]  # per seat: cards held per card kind (secret)
    draw_pile: list[int]  # card kinds, top first (secret order)
    discards: list[int]  # per card kind, face up
    draws: list[list[int]]  # cards still to draw: [seat, count], first due first
    wall: int  # this turn's wall line, or -1
    roll: tuple[int, int, int] | None  # this turn's dice: tower colour, two house dice
    new_city: int  # spaces of the city this turn's wall completed (0: none)
    scored_city: int  # index of the city being scored, or -1
    completed: bool  # a city was completed this turn
    ending: bool  # the last piece of a kind left its supply this turn (M4)

    def __init__(self, players: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Masons is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
        self.n = players
        self.phase = SETUP
        self.active = 0
        self.turn = 0
        self.queue = []
        self.walls = 0
        self.closed = 0
        self.towers = [0, 0, 0]
        self.houses = [[0] * 5 for _ in range(SPACES)]
        self.city_of = [-1] * SPACES
        self.cities = []
        self.city_spaces = 0
        self.walls_left = WALLS
        self.towers_left = [TOWERS_PER_COLOUR] * 3
        self.houses_left = [HOUSES_PER_COLOUR] * 5
        self.palaces_left = [PALACES_PER_COLOUR] * 5
        self.points = [0] * players
        self.scorings = []
        self.hands = [[0] * KINDS for _ in range(players)]
        self.draw_pile = []
        self.discards = [0] * KINDS
        self.draws = []
        self.wall = -1
        self.roll = None
        self.new_city = 0
        self.scored_city = -1
        self.completed = False
        self.ending = False

    # --- the contract ---------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        return self.active if self.phase in (WALL, TOWERS, HOUSES, CONNECT) else self.queue[0]

    @property
    def decision(self) -> str | None:
        """The pending decision kind, or None at a chance node or the end."""
        if self.phase == OVER or self.is_chance_node():
            return None
        return DECISION_PHASES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase in (SETUP, ROLL) or bool(self.draws)

    def scores(self) -> list[int]:
        return list(self.points)

    def ranks(self) -> list[int]:
        """Competition ranks: points, then cards in hand (M4); full ties share a rank."""
        keys = [(score, sum(hand)) for score, hand in zip(self.points, self.hands, strict=True)]
        return [1 + sum(other > key for other in keys) for key in keys]

    def sample_chance(self, rng: random.Random) -> Shuffle | Roll:
        """The chance outcome due: the deal's shuffle, a reshuffle of the discards, or the dice."""
        if self.phase == SETUP:
            order = list(FULL_DECK)
        elif self.draws:
            order = [kind for kind, count in enumerate(self.discards) for _ in range(count)]
        elif self.phase == ROLL:
            return Roll(TOWER_DIE[rng.randrange(6)], (rng.randrange(6), rng.randrange(6)))
        else:
            raise IllegalActionError("M10 chance", "no chance outcome is due")
        rng.shuffle(order)
        return Shuffle(tuple(order))

    def apply(self, step: Step) -> None:
        """Apply a step after checking every rule; a refused step leaves the state unchanged."""
        rules.check(self, step)
        self.apply_unchecked(step)

    def apply_unchecked(self, step: Step) -> None:
        """Apply a step known to be legal."""
        match step:
            case Shuffle(order):
                self._shuffled(order)
            case Roll(tower, houses):
                self.roll = (tower, houses[0], houses[1])
                self.phase = TOWERS
                self._offer_towers()
            case Wall(line):
                self._build(line)
            case Towers(colours):
                self._place_towers(colours)
            case Houses(colours):
                self._place_houses(colours)
            case Connect(city):
                self._resolve_city(city)
            case Score(cards, discard):
                self._score(cards, discard)
            case Swap(cards):
                self._swap(cards)
            case FinalScore(city, cards):
                self._final(city, cards)

    def legal_actions(self) -> list[Action]:
        return rules.legal_actions(self)

    def sample_action(self, rng: random.Random) -> Action:
        """A legal action drawn uniformly (a swap: each card kept or not with even odds)."""
        return rules.sample_action(self, rng)

    def clone(self) -> State:
        state = State.__new__(State)
        state.n = self.n
        state.phase = self.phase
        state.active = self.active
        state.turn = self.turn
        state.queue = list(self.queue)
        state.walls = self.walls
        state.closed = self.closed
        state.towers = list(self.towers)
        state.houses = [list(h) for h in self.houses]
        state.city_of = list(self.city_of)
        state.cities = [city.copy() for city in self.cities]
        state.city_spaces = self.city_spaces
        state.walls_left = self.walls_left
        state.towers_left = list(self.towers_left)
        state.houses_left = list(self.houses_left)
        state.palaces_left = list(self.palaces_left)
        state.points = list(self.points)
        state.scorings = list(self.scorings)
        state.hands = [list(hand) for hand in self.hands]
        state.draw_pile = list(self.draw_pile)
        state.discards = list(self.discards)
        state.draws = [list(d) for d in self.draws]
        state.wall = self.wall
        state.roll = self.roll
        state.new_city = self.new_city
        state.scored_city = self.scored_city
        state.completed = self.completed
        state.ending = self.ending
        return state

    # --- board facts ----------------------------------------------------------------------------------
    def supply_counts(self) -> tuple[int, int, int, int]:
        """Walls, towers, houses and palaces left in the supply."""
        return self.walls_left, sum(self.towers_left), sum(self.houses_left), sum(self.palaces_left)

    def open_lines(self) -> int:
        """Lines where a wall may be built: empty and not inside a completed city (M3.1)."""
        return ALL_LINES & ~self.walls & ~self.closed

    def tower_at(self, point: int) -> int:
        for colour, mask in enumerate(self.towers):
            if mask >> point & 1:
                return colour
        return -1

    def tower_choices(self) -> tuple[tuple[int, ...], ...]:
        assert self.roll is not None
        low, high = LINES[self.wall]
        return tower_options((self.tower_at(low), self.tower_at(high)), self.roll[0], tuple(self.towers_left))

    def house_choices(self) -> tuple[tuple[int, ...], ...]:
        assert self.roll is not None
        return house_options(
            len(LINE_SPACES[self.wall]), (self.roll[1], self.roll[2]), tuple(self.houses_left)
        )

    def neighbours(self) -> list[int]:
        """Completed cities sharing a wall with the new city, ascending (M5.1)."""
        found = set()
        for sp in spaces_of(self.new_city):
            for _, other in SPACE_NEIGHBOURS[sp]:
                if self.city_of[other] >= 0:
                    found.add(self.city_of[other])
        return sorted(found)

    def city(self, index: int) -> CityFacts:
        city = self.cities[index]
        return city_facts(city.spaces, city.houses, city.palaces, self.towers)

    def land(self) -> LandFacts:
        return land_facts(self.city_spaces, self.houses, self.towers, self.walls, len(self.cities))

    def card_value(self, card: int, city: int | None) -> int:
        """What ``card`` scores now for completed city ``city`` (None: no city named)."""
        return self.cards_value((card,), city)

    def cards_value(self, cards: tuple[int, ...], city: int | None) -> int:
        """What ``cards`` played together score now: each on its own, on the same board (M8)."""
        facts, land = None if city is None else self.city(city), self.land()
        return sum(card_points(card, facts, land) for card in cards)

    # --- the turn -------------------------------------------------------------------------------------
    def _shuffled(self, order: tuple[int, ...]) -> None:
        self.draw_pile = list(order)
        if self.phase == SETUP:
            for seat in range(self.n):
                for _ in range(HAND_SIZE):
                    self.hands[seat][self.draw_pile.pop(0)] += 1
            self._start_turn(0)
            return
        self.discards = [0] * KINDS
        self._continue()

    def _start_turn(self, seat: int) -> None:
        self.active = seat
        self.turn += 1
        self.wall, self.roll, self.new_city, self.scored_city = -1, None, 0, -1
        self.completed = False
        if self.open_lines():
            self.phase = WALL
        else:  # M3.1: no wall can be built, the game ends now without a completed city
            self.ending = True
            self._end_turn()

    def _build(self, line: int) -> None:
        self.walls |= 1 << line
        self.walls_left -= 1
        if self.walls_left == 0:
            self.ending = True
        self.wall = line
        self.new_city = completed_by(line, self.walls)
        self.phase = ROLL

    def _offer_towers(self) -> None:
        options = self.tower_choices()
        if len(options) == 1:
            self._place_towers(options[0])

    def _place_towers(self, colours: tuple[int, ...]) -> None:
        for point, colour in zip(LINES[self.wall], colours, strict=True):
            if colour >= 0:
                self.towers[colour] |= 1 << point
                self.towers_left[colour] -= 1
                if not any(self.towers_left):
                    self.ending = True
        self.phase = HOUSES
        options = self.house_choices()
        if len(options) == 1:
            self._place_houses(options[0])

    def _place_houses(self, colours: tuple[int, ...]) -> None:
        for space, colour in zip(LINE_SPACES[self.wall], colours, strict=True):
            if colour >= 0:
                self.houses[space][colour] += 1
                self.houses_left[colour] -= 1
                if not any(self.houses_left):
                    self.ending = True
        if not self.new_city:
            self._end_turn()
        elif self.neighbours():
            self.phase = CONNECT
        else:
            self._resolve_city(None)

    def _resolve_city(self, join: int | None) -> None:
        """M5: connect, return interior walls and towers, form palaces; then the scoring round."""
        new = self.new_city
        if join is None:
            index = len(self.cities)
            self.cities.append(City(new, [0] * 5, [0] * 5))
        else:
            index = join
        city = self.cities[index]
        city.spaces |= new
        for sp in spaces_of(new):
            self.city_of[sp] = index
            for colour, count in enumerate(self.houses[sp]):
                city.houses[colour] += count
            self.houses[sp] = [0] * 5
        self.city_spaces |= new
        inside = lines_within(city.spaces)  # includes the walls shared with a joined city
        returned = self.walls & inside
        self.walls_left += returned.bit_count()
        self.walls &= ~inside
        self.closed |= inside
        interior = INTERIOR_POINTS & points_of(city.spaces)
        for p in spaces_of(interior):
            if POINT_SPACES[p] & ~city.spaces:
                interior &= ~(1 << p)
        for colour in range(3):
            gone = self.towers[colour] & interior
            self.towers_left[colour] += gone.bit_count()
            self.towers[colour] &= ~gone
        for colour in range(5):
            while city.houses[colour] >= 2 and self.palaces_left[colour] > 0:
                city.houses[colour] -= 2
                self.houses_left[colour] += 2
                self.palaces_left[colour] -= 1
                city.palaces[colour] += 1
                if not any(self.palaces_left):
                    self.ending = True
        self.new_city = 0
        self.scored_city = index
        self.scorings.append(Scoring(index, city.spaces.bit_count(), (0,) * self.n))
        self.completed = True
        self.phase = SCORE
        self.queue = self._seats_from_active()
        self._continue()

    def _seats_from_active(self) -> list[int]:
        return [(self.active + k) % self.n for k in range(self.n)]

    def _score(self, cards: tuple[int, ...], discard: bool) -> None:
        seat = self.queue.pop(0)
        hand = self.hands[seat]
        if not discard:
            self._gain(seat, self.cards_value(cards, self.scored_city))
        for card in cards:
            hand[card] -= 1
            self.discards[card] += 1
        self.draws.append([seat, 2 if discard else 1])
        self._continue()

    def _gain(self, seat: int, points: int) -> None:
        """Score ``points`` for ``seat`` in the scoring under way: the last one recorded, or one begun
        now for a state set up in the middle of a scoring (a position built from an observation)."""
        self.points[seat] += points
        city = self.scored_city if self.phase == SCORE else -1
        if not self.scorings or self.scorings[-1].city != city:
            size = self.cities[city].spaces.bit_count() if city >= 0 else 0
            self.scorings.append(Scoring(city, size, (0,) * self.n))
        self.scorings[-1] = self.scorings[-1].add(seat, points)

    def _swap(self, cards: tuple[int, ...]) -> None:
        seat = self.queue.pop(0)
        for card in cards:
            self.hands[seat][card] -= 1
            self.discards[card] += 1
        if cards:
            self.draws.append([seat, len(cards)])
        self._continue()

    def _final(self, city: int | None, cards: tuple[int, ...]) -> None:
        seat = self.queue.pop(0)
        self._gain(seat, self.cards_value(cards, city))
        for card in cards:
            self.hands[seat][card] -= 1
            self.discards[card] += 1
        self._continue()

    def _draw(self) -> bool:
        """Draw the cards due; False when a reshuffle (chance) must come first."""
        while self.draws:
            seat, count = self.draws[0]
            while count:
                if not self.draw_pile:
                    if any(self.discards):
                        self.draws[0][1] = count
                        return False
                    count = 0  # M6: both piles empty, nothing is drawn
                    break
                self.hands[seat][self.draw_pile.pop(0)] += 1
                count -= 1
            self.draws.pop(0)
        return True

    def _continue(self) -> None:
        """After a scoring-round, swap or final decision: draw, then ask the next seat or move on."""
        if not self._draw():
            return
        if self.phase == SCORE:
            self._skip_empty_hands()
            if self.queue:
                return
            lowest = min(self.points)
            self.phase = SWAP
            self.queue = [seat for seat in self._seats_from_active() if self.points[seat] == lowest]
        if self.phase == SWAP:
            self._skip_empty_hands()
            if self.queue:
                return
            self._end_turn()
            return
        if self.phase == FINAL:
            self._skip_empty_hands()
            if not self.queue:
                self.phase = OVER

    def _skip_empty_hands(self) -> None:
        """A seat without a card it could play passes without being asked (its only option, M10)."""
        while self.queue and not self._can_play(self.hands[self.queue[0]]):
            self.queue.pop(0)

    def _can_play(self, hand: list[int]) -> bool:
        if self.phase == FINAL and not self.cities:  # M4: without a city only land cards and `cities`
            return any(hand[k] for k in WITHOUT_CITY)
        return any(hand)

    def _end_turn(self) -> None:
        if not self.ending:
            self._start_turn((self.active + 1) % self.n)
            return
        if self.completed:
            self.phase = OVER
            return
        self.phase = FINAL  # M4: no city completed in the last turn
        self.scorings.append(Scoring(-1, 0, (0,) * self.n))
        self.queue = self._seats_from_active()
        self._continue()

    # --- JSON -----------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.n,
            "phase": PHASE_NAMES[self.phase],
            "active": self.active,
            "turn": self.turn,
            "queue": list(self.queue),
            "walls": self.walls,
            "closed": self.closed,
            "towers": list(self.towers),
            "houses": [list(h) for h in self.houses],
            "cities": [city.to_json() for city in self.cities],
            "supply": {
                "walls": self.walls_left,
                "towers": list(self.towers_left),
                "houses": list(self.houses_left),
                "palaces": list(self.palaces_left),
            },
            "points": list(self.points),
            "scorings": [scoring.to_json() for scoring in self.scorings],
            "hands": [list(hand) for hand in self.hands],
            "draw_pile": list(self.draw_pile),
            "discards": list(self.discards),
            "draws": [list(d) for d in self.draws],
            "wall": self.wall,
            "roll": None if self.roll is None else list(self.roll),
            "new_city": self.new_city,
            "scored_city": self.scored_city,
            "completed": self.completed,
            "ending": self.ending,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        state = cls(int(data["players"]))
        state.phase = PHASE_NAMES.index(data["phase"])
        state.active = int(data["active"])
        state.turn = int(data["turn"])
        state.queue = [int(s) for s in data["queue"]]
        state.walls = int(data["walls"])
        state.closed = int(data["closed"])
        state.towers = [int(m) for m in data["towers"]]
        state.houses = [[int(c) for c in h] for h in data["houses"]]
        state.cities = [City.from_json(c) for c in data["cities"]]
        state.city_of = [-1] * SPACES
        for index, city in enumerate(state.cities):
            for sp in spaces_of(city.spaces):
                state.city_of[sp] = index
            state.city_spaces |= city.spaces
        supply = data["supply"]
        state.walls_left = int(supply["walls"])
        state.towers_left = [int(n) for n in supply["towers"]]
        state.houses_left = [int(n) for n in supply["houses"]]
        state.palaces_left = [int(n) for n in supply["palaces"]]
        state.points = [int(p) for p in data["points"]]
        state.scorings = [Scoring.from_json(scoring) for scoring in data["scorings"]]
        state.hands = [[int(c) for c in hand] for hand in data["hands"]]
        state.draw_pile = [int(c) for c in data["draw_pile"]]
        state.discards = [int(c) for c in data["discards"]]
        state.draws = [[int(s), int(c)] for s, c in data["draws"]]
        state.wall = int(data["wall"])
        roll = data["roll"]
        state.roll = None if roll is None else (int(roll[0]), int(roll[1]), int(roll[2]))
        state.new_city = int(data["new_city"])
        state.scored_city = int(data["scored_city"])
        state.completed = bool(data["completed"])
        state.ending = bool(data["ending"])
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def new_game(players: int = 4) -> State:
    """A game before the deal: the first step is the referee's shuffle of the 60 cards."""
    return State(players)


def unseen_cards(hand: list[int], discards: list[int]) -> list[int]:
    """Card kinds neither in ``hand`` nor on the discard pile (one entry per card)."""
    return [k for k in range(KINDS) for _ in range(COPIES[k] - hand[k] - discards[k])]
