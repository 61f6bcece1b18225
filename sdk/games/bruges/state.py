"""The rules engine: one mutable :class:`State` that runs a game from setup to final scoring.

Chance is explicit (B4, B25): a card's identity is fixed only when it becomes the top of a draw
pile (an :class:`Expose` step drawn from ``pool``, the cards not yet placed anywhere), and the five
dice are one :class:`Roll`. Between decisions the state runs every automatic step itself, and a
decision with a single legal option is applied without asking (B23).
"""

from __future__ import annotations

import random
from typing import Any

from sdk.games.errors import IllegalActionError

from .actions import (
    FIRE_EMPTY,
    FIRE_HOUSE,
    FIRE_SECTION_A,
    GUILDERS,
    HOUSE,
    RECRUIT,
    THREAT,
    WORKERS,
    Action,
    Activate,
    Advance,
    CancelPenalty,
    DrawPile,
    End,
    Expose,
    FireChoice,
    PenaltyOrder,
    PlagueDiscard,
    Play,
    Roll,
    Step,
)
from .cards import (
    ACCOUNTANT,
    ALCHEMIST,
    BEGGAR,
    BLUE,
    BROWN,
    CARD_COLOUR,
    CARD_PERSON,
    CARD_PRICE,
    CARPENTER,
    COACHMAN,
    COOK,
    COUNCILMAN,
    INVENTOR,
    JAILER,
    JESTER,
    JUGGLER,
    KNIGHT,
    LAWYER,
    MINSTREL,
    NUM_CARDS,
    NUN,
    PHYSICIAN,
    POET,
    PRIEST,
    PRINCE,
    PRINCESS,
    PURPLE,
    RED,
    SCULPTOR,
    SERVANT,
    SHIPOWNER,
    SMUGGLER,
    THIEF,
    WATCHMAN,
)
from .params import MAX_PLAYERS, MIN_PLAYERS, Params
from .phases import (
    ADVANCE_REPUTATION,
    CANCEL_PENALTY,
    DRAW,
    DRAW_PILE,
    EXTRA_PLAY,
    FIRE_CHOICE,
    OVER,
    PENALTY_ORDER,
    PLAGUE_DISCARD,
    REPUTATION,
    RULE_OF,
    TAKE_TURN,
    THREATS,
    TURNS,
)
from .rules import COSTS, fire_options, options_for, plays, turn_options, why_illegal
from .scoring import final_points

CHANCE, TERMINAL = -1, -4
#: Fields of the state, in the order of its JSON form.
FIELDS = (
    "n", "round", "start", "final_round", "phase", "seat_idx", "lap", "turn_played", "extra", "turns",
    "decision", "decider", "pool", "pile_size", "pile_top", "extra_size", "extra_used", "exposing",
    "rolling", "dice", "hands", "public_hand", "blind", "houses", "rotated", "pmask", "workers", "guilders",
    "score", "rep", "advanced", "threats", "supply", "canals", "statue_given", "statues", "statue_stack",
    "majorities", "discard", "victim", "circles", "cur_pen", "pen_stage", "jester_queue",
)  # fmt: skip


def _bit(person: int) -> int:
    return 1 << person


class State:
    """A game of Bruges for ``n`` seats (see the module docstring)."""

    __slots__ = (*FIELDS, "params", "_options")

    n: int
    round: int
    start: int
    final_round: int
    phase: int
    seat_idx: int
    lap: int
    turn_played: bool
    extra: bool
    turns: int
    decision: str | None
    decider: int
    pool: list[int]
    pile_size: list[int]
    pile_top: list[int]
    extra_size: int
    extra_used: bool
    exposing: list[int]
    rolling: bool
    dice: list[int]
    hands: list[list[int]]
    public_hand: list[list[int]]
    blind: list[int]
    houses: list[list[list[int]]]
    rotated: list[int]
    pmask: list[int]
    workers: list[list[int]]
    guilders: list[int]
    score: list[int]
    rep: list[int]
    advanced: list[bool]
    threats: list[list[int]]
    supply: list[int]
    canals: list[list[int]]
    statue_given: list[list[bool]]
    statues: list[list[int]]
    statue_stack: list[int]
    majorities: list[list[bool]]
    discard: list[int]
    victim: int
    circles: list[int]
    cur_pen: int
    pen_stage: int
    jester_queue: list[int]
    params: Params
    _options: list[Action] | None

    # --- the surface the referee uses ----------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.exposing or self.rolling:
            return CHANCE
        return self.decider

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase != OVER and bool(self.exposing or self.rolling)

    def sample_chance(self, rng: random.Random) -> Expose | Roll:
        if self.exposing:
            return Expose(self.exposing[0], self.pool[rng.randrange(len(self.pool))])
        if self.rolling:
            r = rng.randint
            return Roll((r(1, 6), r(1, 6), r(1, 6), r(1, 6), r(1, 6)))
        raise ValueError("not a chance node")

    def legal_actions(self) -> list[Action]:
        if self.phase == OVER or self.exposing or self.rolling or self.decision is None:
            return []
        if self._options is None:
            self._options = options_for(self, self.decision, self.decider)
        return list(self._options)

    def apply(self, step: Step) -> None:
        """Apply ``step``; a step the rules forbid raises IllegalActionError and changes nothing."""
        if self.phase == OVER:
            raise IllegalActionError("B21 end", "the game is over")
        if self.exposing or self.rolling:
            self._apply_chance(step)
        else:
            kind = self.decision
            assert kind is not None
            if isinstance(step, (Expose, Roll)):
                raise IllegalActionError("B25 chance", f"a {kind} decision is pending, not a chance outcome")
            if step not in self.legal_actions():
                raise IllegalActionError(RULE_OF[kind], why_illegal(self, kind, step))
            self.decision = None
            self._options = None
            self._handle(step)
        self._advance()

    def apply_unchecked(self, step: Step) -> None:
        """Apply a step known to be legal (benchmarks and search): no membership check."""
        if self.exposing or self.rolling:
            self._apply_chance(step)
        else:
            self.decision = None
            self._options = None
            self._handle(step)  # type: ignore[arg-type]
        self._advance()

    def sample_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action of the deciding seat."""
        options = self.legal_actions()
        return options[rng.randrange(len(options))]

    def clone(self) -> State:
        new = State.__new__(State)
        new.n, new.round, new.start, new.final_round = self.n, self.round, self.start, self.final_round
        new.phase, new.seat_idx, new.lap, new.turn_played = (
            self.phase,
            self.seat_idx,
            self.lap,
            self.turn_played,
        )
        new.extra, new.turns, new.decision, new.decider = self.extra, self.turns, self.decision, self.decider
        new.pool = self.pool[:]
        new.pile_size, new.pile_top = self.pile_size[:], self.pile_top[:]
        new.extra_size, new.extra_used, new.exposing = self.extra_size, self.extra_used, self.exposing[:]
        new.rolling, new.dice = self.rolling, self.dice[:]
        new.hands = [h[:] for h in self.hands]
        new.public_hand = [h[:] for h in self.public_hand]
        new.blind = self.blind[:]
        new.houses = [[house[:] for house in seat] for seat in self.houses]
        new.rotated, new.pmask = self.rotated[:], self.pmask[:]
        new.workers = [w[:] for w in self.workers]
        new.guilders, new.score, new.rep = self.guilders[:], self.score[:], self.rep[:]
        new.advanced = self.advanced[:]
        new.threats = [t[:] for t in self.threats]
        new.supply = self.supply[:]
        new.canals = [c[:] for c in self.canals]
        new.statue_given = [g[:] for g in self.statue_given]
        new.statues = [s[:] for s in self.statues]
        new.statue_stack = self.statue_stack[:]
        new.majorities = [m[:] for m in self.majorities]
        new.discard = self.discard[:]
        new.victim, new.circles, new.cur_pen = self.victim, self.circles[:], self.cur_pen
        new.pen_stage, new.jester_queue = self.pen_stage, self.jester_queue[:]
        new.params, new._options = self.params, self._options
        return new

    def scores(self) -> list[int]:
        return self.score[:]

    def ranks(self) -> list[int]:
        """Competition ranks by score, then guilders (B22)."""
        keys = [(self.score[s], self.guilders[s]) for s in range(self.n)]
        return [1 + sum(other > key for other in keys) for key in keys]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"params": self.params.to_json()}
        for name in FIELDS:
            value = getattr(self, name)
            data[name] = _plain(value)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        state = cls.__new__(cls)
        state.params = Params.from_json(data["params"])
        for name in FIELDS:
            setattr(state, name, _plain(data[name]))
        state._options = None
        return state

    # --- helpers --------------------------------------------------------------------------------------

    def has(self, seat: int, person: int) -> bool:
        return bool(self.pmask[seat] >> person & 1)

    def persons_of(self, seat: int) -> list[int]:
        """The person cards in ``seat``'s houses, in building order."""
        return [house[1] for house in self.houses[seat] if house[1] >= 0]

    def hand_target(self, seat: int) -> int:
        return self.params.hand_size + (1 if self.has(seat, INVENTOR) else 0)

    def reputation_price(self) -> int:
        return sum(d for d in self.dice if d <= 2)

    def price_for(self, seat: int) -> int:
        price = self.reputation_price()
        return max(0, price - 2) if self.has(seat, PRINCESS) else price

    def can_advance(self, seat: int) -> bool:
        """B13: a step is for sale (P > 0), the seat's pawn is below the top and it can pay."""
        return (
            self.reputation_price() > 0
            and self.rep[seat] < self.params.top_step
            and self.guilders[seat] >= self.price_for(seat)
        )

    def deciding_seats(self) -> tuple[int, ...]:
        """The seats deciding now: in the reputation phase (B13) every seat still to decide that can
        advance, in seat order, since each choice touches only that seat's own purse and pawn (and
        so nobody's options); otherwise the one deciding seat."""
        if self.decision != ADVANCE_REPUTATION:
            return (self.decider,)
        later = ((self.start + i) % self.n for i in range(self.seat_idx + 1, self.n))
        return (self.decider, *(seat for seat in later if self.can_advance(seat)))

    # --- chance ---------------------------------------------------------------------------------------

    def _apply_chance(self, step: Step) -> None:
        if self.exposing:
            if not isinstance(step, Expose) or step.pile != self.exposing[0] or step.card not in self.pool:
                raise IllegalActionError(
                    "B4 chance",
                    f"the top of draw pile {self.exposing[0] + 1} is due, from unplaced cards",
                )
            self.pool.remove(step.card)
            self.pile_top[step.pile] = step.card
            self.exposing.pop(0)
            return
        if not isinstance(step, Roll) or any(not 1 <= d <= 6 for d in step.dice):
            raise IllegalActionError("B11 chance", "the five dice are due, each from 1 to 6")
        self.dice = list(step.dice)
        self.rolling = False

    # --- the flow of a game ---------------------------------------------------------------------------

    def _advance(self) -> None:
        """Run automatic steps until a decision, a chance outcome or the end is due."""
        while True:
            if self.phase == OVER or self.exposing or self.rolling or self.decision is not None:
                return
            if self.victim >= 0:
                self._penalty_step()
            elif self.jester_queue:
                self._jester_step()
            elif self.phase == DRAW:
                self._draw_step()
            elif self.phase == THREATS:
                self._threat_step()
            elif self.phase == REPUTATION:
                self._reputation_step()
            else:
                self._turn_step()

    def _ask(self, kind: str, seat: int, options: list[Action]) -> None:
        """Pose a decision, or apply its only option at once (B23)."""
        if len(options) == 1:
            self._handle(options[0])
            return
        self.decision, self.decider, self._options = kind, seat, options

    def _draw_step(self) -> None:
        if self.seat_idx >= self.n:
            self.phase, self.seat_idx, self.rolling = THREATS, 0, True
            return
        seat = (self.start + self.seat_idx) % self.n
        if len(self.hands[seat]) < self.hand_target(seat) and (self.pile_size[0] or self.pile_size[1]):
            self._ask(DRAW_PILE, seat, [DrawPile(p) for p in (0, 1) if self.pile_size[p]])
            return
        self.blind.clear()  # this seat's drawing is over: it sees its cards now (B25)
        self.seat_idx += 1

    def _threat_step(self) -> None:
        if self.seat_idx >= self.n:
            self.phase, self.seat_idx = REPUTATION, 0
            return
        seat = (self.start + self.seat_idx) % self.n
        self.seat_idx += 1
        held, supply = self.threats[seat], self.supply
        circles = []
        for colour, die in enumerate(self.dice):
            if die >= 5 and supply[colour] > 0:
                supply[colour] -= 1
                held[colour] += 1
                if held[colour] >= 3:
                    circles.append(colour)
        if circles:
            self.victim, self.circles, self.cur_pen = seat, circles, -1

    def _reputation_step(self) -> None:
        if self.seat_idx >= self.n:
            self.phase, self.seat_idx, self.lap, self.turn_played = TURNS, 0, 0, False
            self.turns += 1
            return
        seat = (self.start + self.seat_idx) % self.n
        if self.can_advance(seat):
            self._ask(ADVANCE_REPUTATION, seat, [Advance(True), Advance(False)])
        else:
            self.seat_idx += 1

    def _turn_step(self) -> None:
        if self.seat_idx >= self.n:
            self.lap += 1
            self.seat_idx = 0
            if self.lap >= self.params.turns_per_round:
                self._end_round()
            else:
                self.turns += 1
            return
        seat = (self.start + self.seat_idx) % self.n
        if self.extra:
            self._ask(EXTRA_PLAY, seat, plays(self, seat))
        else:
            self._ask(TAKE_TURN, seat, turn_options(self, seat))

    def _end_round(self) -> None:
        """Phase 4 (B17): majorities, straighten, pass the start player; or the end (B21)."""
        n = self.n
        counts = (
            self.rep,
            [len(self.persons_of(s)) for s in range(n)],
            [self.canals[s][0] + self.canals[s][1] for s in range(n)],
        )
        for kind, values in enumerate(counts):
            for s in range(n):
                if all(values[s] > values[t] for t in range(n) if t != s):
                    self.majorities[s][kind] = True
        self.rotated.clear()
        self.advanced = [False] * n
        if self.round == self.final_round:
            for s in range(n):
                self.score[s] += sum(final_points(self, s).values())
            self.phase = OVER
            self.decision = None
            return
        self.dice = []
        self.round += 1
        self.start = (self.start + 1) % n
        self.phase, self.seat_idx = DRAW, 0

    def _handle(self, step: Action) -> None:
        if isinstance(step, Play):
            self._play(step)
        elif isinstance(step, Activate):
            self._activate(step)
        elif isinstance(step, End):
            self.seat_idx += 1
            self.turn_played = False
            if self.seat_idx < self.n:
                self.turns += 1
        elif isinstance(step, DrawPile):
            self._draw((self.start + self.seat_idx) % self.n, step.pile, blind=True)
        elif isinstance(step, Advance):
            seat = (self.start + self.seat_idx) % self.n
            if step.advance:
                self.guilders[seat] -= self.price_for(seat)
                self._move_up(seat)
                self.advanced[seat] = True
            self.seat_idx += 1
        elif isinstance(step, PenaltyOrder):
            self.circles.remove(step.colour)
            self.cur_pen, self.pen_stage = step.colour, 0
        elif isinstance(step, CancelPenalty):
            if step.cancel:
                self.workers[self.victim][self.cur_pen] -= 1
                self.pen_stage = 3
            else:
                self.pen_stage = 2
        elif isinstance(step, PlagueDiscard):
            self._lose_person(self.victim, step.card)
            self.pen_stage = 3
        elif isinstance(step, FireChoice):
            self._burn(self.victim, step)
            self.pen_stage = 3

    def _draw(self, seat: int, pile: int, blind: bool) -> None:
        card = self.pile_top[pile]
        self.hands[seat].append(card)
        if blind:
            self.blind.append(card)
        self.pile_size[pile] -= 1
        self.pile_top[pile] = -1
        if self.pile_size[pile]:
            self.exposing.append(pile)
        else:
            self._ran_out(pile)

    def _ran_out(self, pile: int) -> None:
        """B10: the extra pile replaces an empty pile once; after that the other pile is split."""
        if not self.extra_used:
            self.extra_used = True
            self.pile_size[pile], self.extra_size = self.extra_size, 0
            if self.pile_size[pile]:
                self.exposing.append(pile)
            if self.final_round < 0:
                self.final_round = self.round if self.phase == DRAW else self.round + 1
            return
        other = 1 - pile
        size = self.pile_size[other]
        if size >= 2:
            moved = size // 2
            self.pile_size[pile], self.pile_top[pile] = moved, self.pile_top[other]
            self.pile_size[other], self.pile_top[other] = size - moved, -1
            self.exposing.append(other)

    def _move_up(self, seat: int) -> None:
        if self.rep[seat] < self.params.top_step:
            self.rep[seat] += 1
            if self.has(seat, COUNCILMAN):
                self.score[seat] += 1

    def _build(self, seat: int, section: int) -> None:
        """Place the next canal token of ``section``, paying its cost (B15 IV, B16)."""
        k = self.canals[seat][section]
        self.guilders[seat] -= self.params.canal_costs[k]
        self.canals[seat][section] = k + 1
        if k + 1 == 5:
            if self.statue_stack and not self.statue_given[seat][section]:
                self.statues[seat].append(self.statue_stack.pop(0))
                self.statue_given[seat][section] = True
            if self.has(seat, SCULPTOR):
                self.score[seat] += 3

    def _play(self, step: Play) -> None:
        seat = (self.start + self.seat_idx) % self.n
        card, action = step.card, step.action
        colour = CARD_COLOUR[card]
        self.hands[seat].remove(card)
        if card in self.public_hand[seat]:
            self.public_hand[seat].remove(card)
        if self.extra:
            self.extra = False
        else:
            self.turn_played = True
        if action == HOUSE:
            self.houses[seat].append([card, -1])
            self.workers[seat][step.arg] -= 1
            if self.has(seat, CARPENTER):
                self.score[seat] += 1
            return
        if action == RECRUIT:
            self._recruit(seat, card)
            return
        self.discard.append(card)
        if action == WORKERS:
            self.workers[seat][colour] += 3 if self.has(seat, LAWYER) else 2
        elif action == GUILDERS:
            self.guilders[seat] += max(self.dice) if self.has(seat, JUGGLER) else self.dice[colour]
        elif action == THREAT:
            self.threats[seat][colour] -= 1
            self.supply[colour] += 1
            self.score[seat] += 1
        else:
            self._build(seat, step.arg)

    def _recruit(self, seat: int, card: int) -> None:
        person = CARD_PERSON[card]
        self.guilders[seat] -= CARD_PRICE[card]
        if self.has(seat, MINSTREL):
            self.guilders[seat] += 2
        for house in self.houses[seat]:
            if house[1] < 0:
                house[1] = card
                break
        self.pmask[seat] |= _bit(person)
        if person == POET:
            self.score[seat] += len(self.persons_of(seat))
        elif person == ALCHEMIST:
            self.guilders[seat] += 6
        elif person == JESTER:
            self.jester_queue = [(seat + k) % self.n for k in range(1, self.n)]

    def _activate(self, step: Activate) -> None:
        seat = (self.start + self.seat_idx) % self.n
        card = step.card
        person = CARD_PERSON[card]
        cost = COSTS[person]
        if cost >= 0:
            self.workers[seat][cost] -= 1
        self.rotated.append(card)
        if person == PRINCE:
            self._move_up(seat)
        elif person == SERVANT:
            self._draw(seat, step.a, blind=False)
            self.extra = True
        elif person == COACHMAN:
            self.extra = True
        elif person == COOK:
            self.guilders[seat] += 4
        elif person == ACCOUNTANT:
            self.guilders[seat] += 2
        elif person == BEGGAR:
            self.guilders[seat] += 1
        elif person == NUN:
            self.workers[seat][step.a] -= 1
            self.score[seat] += 1
        elif person == SHIPOWNER:
            self._build(seat, step.a)
        elif person == JAILER:
            self.threats[seat][step.a] -= 1
            self.supply[step.a] += 1
            self.score[seat] += 1
        elif person == THIEF:
            for other in range(self.n):
                if other != seat and self.guilders[other]:
                    self.guilders[other] -= 1
                    self.guilders[seat] += 1
        elif person == SMUGGLER:
            self.workers[seat][step.a] -= 1
            self.workers[seat][step.b] += 1

    # --- threats and penalties (B11, B12) -------------------------------------------------------------

    def _jester_step(self) -> None:
        seat = self.jester_queue.pop(0)
        if self.supply[PURPLE] > 0:
            self.supply[PURPLE] -= 1
            self.threats[seat][PURPLE] += 1
            if self.threats[seat][PURPLE] >= 3:
                self.victim, self.circles, self.cur_pen = seat, [PURPLE], -1

    def harmless(self, seat: int, colour: int) -> bool:
        """Immunity applies, or the penalty would change nothing (B12)."""
        if colour == BLUE:
            return not any(self.workers[seat])
        if colour == BROWN:
            return self.has(seat, PHYSICIAN) or not self.pmask[seat]
        if colour == RED:
            return not self.houses[seat] and not any(self.canals[seat])
        if colour == PURPLE:
            return self.score[seat] == 0
        return self.has(seat, WATCHMAN) or self.guilders[seat] == 0

    def _penalty_step(self) -> None:
        seat = self.victim
        if self.cur_pen < 0:
            if not self.circles:
                self.victim = -1
                return
            if len(self.circles) >= 2:
                self._ask(PENALTY_ORDER, seat, [PenaltyOrder(c) for c in sorted(self.circles)])
                return
            self.cur_pen, self.pen_stage = self.circles.pop(), 0
        colour = self.cur_pen
        if self.pen_stage == 0:
            if self.harmless(seat, colour):
                self.pen_stage = 3
            elif self.has(seat, KNIGHT) and self.workers[seat][colour]:
                self._ask(CANCEL_PENALTY, seat, [CancelPenalty(True), CancelPenalty(False)])
                return
            else:
                self.pen_stage = 2
        if self.pen_stage == 2:
            if colour == BROWN:
                self._ask(PLAGUE_DISCARD, seat, [PlagueDiscard(card) for card in self.persons_of(seat)])
                return
            if colour == RED:
                self._ask(FIRE_CHOICE, seat, fire_options(self, seat))
                return
            if colour == BLUE:
                self.workers[seat] = [0] * 5
            elif colour == PURPLE:
                self.score[seat] = max(0, self.score[seat] - 3)
            else:
                self.guilders[seat] = 0
            self.pen_stage = 3
        if self.pen_stage == 3:
            self.threats[seat][colour] -= 3
            self.supply[colour] += 3
            if self.has(seat, PRIEST):
                self.score[seat] += 2
            self.cur_pen = -1

    def _lose_person(self, seat: int, card: int) -> None:
        """Plague: the person goes to the discard pile; its house stays, empty."""
        for house in self.houses[seat]:
            if house[1] == card:
                house[1] = -1
        self._leave_play(seat, card)
        self.discard.append(card)

    def _leave_play(self, seat: int, card: int) -> None:
        self.pmask[seat] &= ~_bit(CARD_PERSON[card])
        if card in self.rotated:
            self.rotated.remove(card)

    def _burn(self, seat: int, choice: FireChoice) -> None:
        houses = self.houses[seat]
        if choice.option == FIRE_HOUSE:
            index = next(i for i, house in enumerate(houses) if house[1] == choice.card)
            house_card, person = houses.pop(index)
            self._leave_play(seat, person)
            self.hands[seat].append(person)
            self.public_hand[seat].append(person)
            self.discard.append(house_card)
        elif choice.option == FIRE_EMPTY:
            index = max(i for i, house in enumerate(houses) if house[1] < 0)
            self.discard.append(houses.pop(index)[0])
        else:
            self.canals[seat][0 if choice.option == FIRE_SECTION_A else 1] -= 1


def _plain(value: Any) -> Any:
    """A JSON-safe copy (lists of lists), used both ways so a round trip is exact."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def new_game(players: int, params: Params | None = None) -> State:
    """Setup (B4, B5): the piles' sizes are fixed, their tops are the first chance outcomes."""
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Bruges takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    params = params or Params()
    n = players
    state = State.__new__(State)
    state.params = params
    state.n, state.round, state.start, state.final_round = n, 1, 0, -1
    state.phase, state.seat_idx, state.lap, state.turn_played = DRAW, 0, 0, False
    state.extra, state.turns, state.decision, state.decider = False, 0, None, -1
    state.pool = list(range(NUM_CARDS))
    in_play = 33 * n
    state.pile_size = [(in_play + 1) // 2, in_play // 2]
    state.pile_top = [-1, -1]
    state.extra_size, state.extra_used = NUM_CARDS - in_play, False
    state.exposing, state.rolling, state.dice = [0, 1], False, []
    state.hands = [[] for _ in range(n)]
    state.public_hand = [[] for _ in range(n)]
    state.blind = []
    state.houses = [[] for _ in range(n)]
    state.rotated, state.pmask = [], [0] * n
    state.workers = [[1] * 5 for _ in range(n)]
    state.guilders = [params.start_guilders] * n
    state.score = [params.start_score] * n
    state.rep, state.advanced = [0] * n, [False] * n
    state.threats = [[0] * 5 for _ in range(n)]
    state.supply = [params.threat_markers] * 5
    state.canals = [[0, 0] for _ in range(n)]
    state.statue_given = [[False, False] for _ in range(n)]
    state.statues = [[] for _ in range(n)]
    state.statue_stack = list(params.statues)
    state.majorities = [[False] * 3 for _ in range(n)]
    state.discard = []
    state.victim, state.circles, state.cur_pen, state.pen_stage = -1, [], -1, 0
    state.jester_queue = []
    state._options = None
    return state


__all__ = ["CHANCE", "TERMINAL", "State", "new_game"]
