"""What one seat may know (B25), as a frozen value: requests, views and bots are built from it.

Public: the whole table (scores, money, workers, markers, canals, statues, majorities, persons in
play with their rotation, house colours, the discard pile, dice, piles' sizes and top colours), the
colours of every hand and the cards that went back from play to a hand. Own only: the persons of
one's hand cards and house cards, except the cards drawn blind in the current phase-1 draw, which
show only their colours until that drawing ends. Nobody: a pile's cards, the top's person included.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import CARD_COLOUR
from .params import Params
from .phases import DRAW, TURNS
from .rules import options_for
from .state import State

Seats = tuple[int, ...]
PerSeat = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class House:
    """One house: its colour, its card (own houses only, else -1), the person in it (-1 empty)."""

    colour: int
    card: int
    person: int
    rotated: bool


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything ``seat`` may know now; ``options`` are its legal actions when it decides (alone, or at
    once with other seats: every seat able to buy a reputation step, B13)."""

    seat: int
    players: int
    params: Params
    round: int
    final_round: int
    phase: int
    start: int
    lap: int
    active: int
    turn_played: bool
    extra: bool
    turns: int
    decision: str
    decider: int
    options: tuple[Action, ...]
    pile_sizes: tuple[int, int]
    pile_colours: tuple[int, int]
    extra_size: int
    extra_used: bool
    dice: tuple[int, ...]
    discard: tuple[int, ...]
    scores: Seats
    guilders: Seats
    reputation: Seats
    advanced: tuple[bool, ...]
    workers: PerSeat
    threats: PerSeat
    supply: tuple[int, ...]
    canals: PerSeat
    statues: PerSeat
    statue_given: tuple[tuple[bool, ...], ...]
    statue_stack: tuple[int, ...]
    majorities: tuple[tuple[bool, ...], ...]
    houses: tuple[tuple[House, ...], ...]
    hand_colours: PerSeat
    public_hands: PerSeat
    hand: tuple[int, ...]
    blind_colours: tuple[int, ...]
    victim: int
    circles: tuple[int, ...]
    penalty: int
    jester_queue: tuple[int, ...]


def _colours(cards: list[int]) -> tuple[int, ...]:
    counts = [0] * 5
    for card in cards:
        counts[CARD_COLOUR[card]] += 1
    return tuple(counts)


def _options(state: State, seat: int, decider: int) -> tuple[Action, ...]:
    """The seat's legal actions when it decides now: alone, or with the seats deciding at once."""
    if decider == seat:
        return tuple(state.legal_actions())
    if decider >= 0 and state.decision is not None and seat in state.deciding_seats():
        return tuple(options_for(state, state.decision, seat))
    return ()


def observe(state: State, seat: int) -> Observation:
    """``seat``'s observation of ``state``."""
    n = state.n
    drawing = (state.start + state.seat_idx) % n if state.phase == DRAW and state.seat_idx < n else -1
    blind = state.blind if drawing == seat else []
    deciding = not state.is_chance_node() and not state.is_terminal() and state.decision is not None
    decider = state.decider if deciding else -1
    rotated = set(state.rotated)
    return Observation(
        seat=seat,
        players=n,
        params=state.params,
        round=state.round,
        final_round=state.final_round,
        phase=state.phase,
        start=state.start,
        lap=state.lap,
        active=(state.start + state.seat_idx) % n if state.phase == TURNS and state.seat_idx < n else -1,
        turn_played=state.turn_played,
        extra=state.extra,
        turns=state.turns,
        decision=state.decision or "" if deciding else "",
        decider=decider,
        options=_options(state, seat, decider),
        pile_sizes=(state.pile_size[0], state.pile_size[1]),
        pile_colours=tuple(CARD_COLOUR[c] if c >= 0 else -1 for c in state.pile_top),  # type: ignore[arg-type]
        extra_size=state.extra_size,
        extra_used=state.extra_used,
        dice=tuple(state.dice),
        discard=tuple(state.discard),
        scores=tuple(state.score),
        guilders=tuple(state.guilders),
        reputation=tuple(state.rep),
        advanced=tuple(state.advanced),
        workers=tuple(map(tuple, state.workers)),
        threats=tuple(map(tuple, state.threats)),
        supply=tuple(state.supply),
        canals=tuple(map(tuple, state.canals)),
        statues=tuple(map(tuple, state.statues)),
        statue_given=tuple(map(tuple, state.statue_given)),
        statue_stack=tuple(state.statue_stack),
        majorities=tuple(map(tuple, state.majorities)),
        houses=tuple(
            tuple(
                House(CARD_COLOUR[h[0]], h[0] if s == seat else -1, h[1], h[1] >= 0 and h[1] in rotated)
                for h in state.houses[s]
            )
            for s in range(n)
        ),
        hand_colours=tuple(_colours(state.hands[s]) for s in range(n)),
        public_hands=tuple(tuple(sorted(state.public_hand[s])) for s in range(n)),
        hand=tuple(sorted(c for c in state.hands[seat] if c not in blind)),
        blind_colours=_colours(blind),
        victim=state.victim,
        circles=tuple(sorted(state.circles)),
        penalty=state.cur_pen,
        jester_queue=tuple(state.jester_queue),
    )
