"""Bruges for learning: the numbering of its actions and the tensor of a seat's observation.

A seat knows its own hand and house cards, every seat's public holdings, and of the others' hands
and the piles only colours and counts (B25); the tensor is written from that observation alone.
Seat blocks are relative to the observing seat (block 0 is that seat, then the others in seat
order after it), and so are the seats named in it (the start player, the deciding, active and
penalised seats), so one numbering serves every seat and table size. Field by field on the bot
page (docs/bots-bruges.md, "Tensors").
"""

from __future__ import annotations

import functools

from sdk.games.tensors import ActionSpace, Features, TensorSpec, Writer

from .actions import (
    CANAL,
    FIRE_EMPTY,
    FIRE_HOUSE,
    FIRE_SECTION_A,
    FIRE_SECTION_B,
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
    FireChoice,
    PenaltyOrder,
    PlagueDiscard,
    Play,
)  # fmt: skip
from .cards import (
    ACCOUNTANT,
    BEGGAR,
    CARD_PERSON,
    COACHMAN,
    COOK,
    JAILER,
    NUM_CARDS,
    NUM_COLOURS,
    NUM_PERSONS,
    NUN,
    PRINCE,
    SERVANT,
    SHIPOWNER,
    SMUGGLER,
    THIEF,
)  # fmt: skip
from .observation import House, Observation
from .params import MAX_PLAYERS
from .phases import KINDS, PHASE_NAMES

_COLOURS = range(NUM_COLOURS)
_PILES = (0, 1)
_SECTIONS = (0, 1)
#: The arguments each activatable person takes (rules.activations): every value the rules may name.
_ACTIVATIONS: dict[int, tuple[tuple[int, int], ...]] = {
    PRINCE: ((-1, -1),),
    SERVANT: tuple((pile, -1) for pile in _PILES),
    COACHMAN: ((-1, -1),),
    COOK: ((-1, -1),),
    NUN: tuple((colour, -1) for colour in _COLOURS),
    ACCOUNTANT: ((-1, -1),),
    SHIPOWNER: tuple((section, -1) for section in _SECTIONS),
    JAILER: tuple((colour, -1) for colour in _COLOURS),
    THIEF: ((-1, -1),),
    BEGGAR: ((-1, -1),),
    SMUGGLER: tuple((give, take) for give in _COLOURS for take in _COLOURS if take != give),
}
#: A card's plays (B15): its action with every argument the rules may name.
_PLAYS = (
    (WORKERS, -1),
    (GUILDERS, -1),
    (THREAT, -1),
    *((CANAL, section) for section in _SECTIONS),
    *((HOUSE, colour) for colour in _COLOURS),
    (RECRUIT, -1),
)

ACTIONS: ActionSpace[Action] = ActionSpace(
    [
        *(DrawPile(pile) for pile in _PILES),
        *(PenaltyOrder(colour) for colour in _COLOURS),
        CancelPenalty(True),
        CancelPenalty(False),
        *(PlagueDiscard(card) for card in range(NUM_CARDS)),
        *(FireChoice(FIRE_HOUSE, card) for card in range(NUM_CARDS)),
        FireChoice(FIRE_EMPTY),
        FireChoice(FIRE_SECTION_A),
        FireChoice(FIRE_SECTION_B),
        Advance(True),
        Advance(False),
        *(
            Activate(card, a, b)
            for card in range(NUM_CARDS)
            for a, b in _ACTIVATIONS.get(CARD_PERSON[card], ())
        ),
        *(Play(card, action, arg) for card in range(NUM_CARDS) for action, arg in _PLAYS),
        End(),
    ]
)

MOST_ROUNDS = 12
MOST_TURNS = 160
MOST_PILE = 100
MOST_POINTS = 100
MOST_GUILDERS = 40
MOST_WORKERS = 15
MOST_THREATS = 3
MOST_HOUSES = 15
MOST_HAND = 10
MOST_STATUE = 10
CANAL_SPACES = 5
TABLE_LENGTH = 4 * MAX_PLAYERS + 3 + len(PHASE_NAMES) + 4 + len(KINDS)
BOARD_LENGTH = 2 + 2 * NUM_COLOURS + 2 + NUM_COLOURS + NUM_COLOURS + 2
PENALTY_LENGTH = 2 * MAX_PLAYERS + 2 * NUM_COLOURS
PURSE_LENGTH = 4 + 3 * NUM_COLOURS + 2 + 2 + 2 + 3 + 1
HOUSES_LENGTH = NUM_COLOURS + 1 + 2 * NUM_PERSONS
#: One seat's numbers in the ``seats`` block: its purse, its public hand's persons, its houses.
SEAT_LENGTH = PURSE_LENGTH + NUM_PERSONS + HOUSES_LENGTH
FEATURES = Features(
    (
        ("table", TABLE_LENGTH),
        ("board", BOARD_LENGTH),
        ("penalty", PENALTY_LENGTH),
        ("discard", NUM_CARDS),
        ("hand", NUM_CARDS),
        ("blind", NUM_COLOURS),
        ("house_cards", NUM_CARDS),
        ("seats", MAX_PLAYERS * SEAT_LENGTH),
    )
)

_ZEROS_CARDS = (0.0,) * NUM_CARDS
_ZEROS_PERSONS = (0.0,) * NUM_PERSONS
#: A count of 0..n as a fraction of n, looked up rather than divided.
_FIFTHS = tuple(k / CANAL_SPACES for k in range(CANAL_SPACES + 1))


@functools.lru_cache(maxsize=4096)
def _cards(cards: tuple[int, ...]) -> tuple[float, ...]:
    """1 at each card (a hand, the discard pile: they change at few decisions)."""
    values = list(_ZEROS_CARDS)
    for card in cards:
        values[card] = 1.0
    return tuple(values)


def _house_cards(houses: tuple[House, ...]) -> list[float]:
    """1 at the card under each house (of the observer's own houses; the others' are -1, unknown)."""
    values = list(_ZEROS_CARDS)
    for house in houses:
        values[house.card] = 1.0
    return values


@functools.lru_cache(maxsize=4096)
def _colours(colours: tuple[int, ...], most: int) -> tuple[float, ...]:
    """Counts by colour as fractions of ``most`` (at most 1), remembered: few distinct ones recur."""
    return tuple(min(count, most) / most for count in colours)


def _one_hot(hot: int, length: int) -> list[float]:
    """``length`` numbers, 1 at ``hot`` (none for a ``hot`` of -1)."""
    values = [0.0] * length
    if hot >= 0:
        values[hot] = 1.0
    return values


def _relative(seat: int, me: int, players: int) -> int:
    """``seat`` counted from ``me``; -1 for no seat."""
    return (seat - me) % players if seat >= 0 else -1


# The blocks below are remembered functions of a few small fields: from one decision to the next
# most of them repeat, and a lookup costs less than writing them again.


@functools.lru_cache(maxsize=4096)
def _table(
    players: int,
    start: int,
    round_: int,
    final_round: int,
    phase: int,
    turns: int,
    lap: int,
    laps: int,
    turn_played: bool,
    extra: bool,
    decision: str,
    decider: int,
    active: int,
) -> tuple[float, ...]:
    """Table size, seats (counted from the observer), round, phase, turn and decision kind."""
    return (
        *_one_hot(players - 1, MAX_PLAYERS),
        *_one_hot(start, MAX_PLAYERS),
        min(round_, MOST_ROUNDS) / MOST_ROUNDS,
        float(final_round >= 0),
        float(round_ == final_round),
        *_one_hot(phase, len(PHASE_NAMES)),
        min(turns, MOST_TURNS) / MOST_TURNS,
        min(lap, laps) / laps,
        float(turn_played),
        float(extra),
        *_one_hot(KINDS.index(decision) if decision else -1, len(KINDS)),
        *_one_hot(decider, MAX_PLAYERS),
        *_one_hot(active, MAX_PLAYERS),
    )


@functools.lru_cache(maxsize=4096)
def _board(
    pile_sizes: tuple[int, int],
    pile_colours: tuple[int, int],
    extra_size: int,
    extra_used: bool,
    dice: tuple[int, ...],
    supply: tuple[int, ...],
    markers: int,
    stack: tuple[int, ...],
    statues: int,
) -> tuple[float, ...]:
    """The draw piles, the dice, the threat supply and the statue stack."""
    tops = [0.0] * (2 * NUM_COLOURS)
    for pile, colour in enumerate(pile_colours):
        if colour >= 0:
            tops[pile * NUM_COLOURS + colour] = 1.0
    dice_values = [die / 6 for die in dice] + [0.0] * (NUM_COLOURS - len(dice))
    return (
        *(min(size, MOST_PILE) / MOST_PILE for size in pile_sizes),
        *tops,
        min(extra_size, MOST_PILE) / MOST_PILE,
        float(extra_used),
        *dice_values,
        *_colours(supply, markers),
        len(stack) / statues,
        min(stack[0], MOST_STATUE) / MOST_STATUE if stack else 0.0,
    )


@functools.lru_cache(maxsize=1024)
def _penalty(
    victim: int, circles: tuple[int, ...], penalty: int, jester_queue: tuple[int, ...]
) -> tuple[float, ...]:
    """The penalised seat, its circles, the penalty resolving and the seats Jester will mark (seats
    already counted from the observer)."""
    pending = [0.0] * NUM_COLOURS
    for colour in circles:
        pending[colour] = 1.0
    jesters = [0.0] * MAX_PLAYERS
    for seat in jester_queue:
        jesters[seat] = 1.0
    return (*_one_hot(victim, MAX_PLAYERS), *pending, *_one_hot(penalty, NUM_COLOURS), *jesters)


@functools.lru_cache(maxsize=8192)
def _purse(
    score: int,
    guilders: int,
    reputation: int,
    advanced: bool,
    workers: tuple[int, ...],
    threats: tuple[int, ...],
    hand_colours: tuple[int, ...],
    canals: tuple[int, ...],
    statue_given: tuple[bool, ...],
    statues: tuple[int, ...],
    majorities: tuple[bool, ...],
    public_hand: tuple[int, ...],
    top_step: int,
) -> tuple[float, ...]:
    """A seat's points, money, reputation, markers, canals, statues, hand counts and public hand."""
    public = list(_ZEROS_PERSONS)
    for card in public_hand:
        public[CARD_PERSON[card]] = 1.0
    return (
        min(score, MOST_POINTS) / MOST_POINTS,
        min(guilders, MOST_GUILDERS) / MOST_GUILDERS,
        reputation / max(top_step, 1),
        float(advanced),
        *_colours(workers, MOST_WORKERS),
        *_colours(threats, MOST_THREATS),
        *_colours(hand_colours, MOST_HAND),
        _FIFTHS[min(canals[0], CANAL_SPACES)],
        _FIFTHS[min(canals[1], CANAL_SPACES)],
        float(statue_given[0]),
        float(statue_given[1]),
        min(len(statues), 2) / 2,
        min(sum(statues), 2 * MOST_STATUE) / (2 * MOST_STATUE),
        *map(float, majorities),
        min(sum(hand_colours), MOST_HAND) / MOST_HAND,
        *public,
    )


def _houses(houses: tuple[House, ...]) -> tuple[float, ...]:
    """A seat's houses by colour, its empty ones, and the persons living in them, rotated or not
    (written anew: a house is not cheap to hash)."""
    colours = [0] * NUM_COLOURS
    persons = list(_ZEROS_PERSONS)
    rotated = list(_ZEROS_PERSONS)
    empty = 0
    for house in houses:
        colours[house.colour] += 1
        if house.person < 0:
            empty += 1
            continue
        person = CARD_PERSON[house.person]
        persons[person] = 1.0
        if house.rotated:
            rotated[person] = 1.0
    return (
        *_colours(tuple(colours), MOST_HOUSES),
        min(empty, MOST_HOUSES) / MOST_HOUSES,
        *persons,
        *rotated,
    )


def encode(observation: Observation, tensor: Writer) -> None:
    """Everything the seat may know, seats counted from it; blocks of absent seats stay zero."""
    o = observation
    me, players, params = o.seat, o.players, o.params
    tensor.put(
        "table",
        _table(
            players,
            _relative(o.start, me, players),
            o.round,
            o.final_round,
            o.phase,
            o.turns,
            o.lap,
            params.turns_per_round,
            o.turn_played,
            o.extra,
            o.decision,
            _relative(o.decider, me, players),
            _relative(o.active, me, players),
        ),
    )
    tensor.put(
        "board",
        _board(
            o.pile_sizes,
            o.pile_colours,
            o.extra_size,
            o.extra_used,
            o.dice,
            o.supply,
            max(params.threat_markers, 1),
            o.statue_stack,
            max(len(params.statues), 1),
        ),
    )
    jesters = tuple((seat - me) % players for seat in o.jester_queue) if o.jester_queue else ()
    tensor.put("penalty", _penalty(_relative(o.victim, me, players), o.circles, o.penalty, jesters))
    tensor.put("discard", _cards(o.discard))
    tensor.put("hand", _cards(o.hand))
    tensor.put("blind", _colours(o.blind_colours, params.hand_size + 1))
    tensor.put("house_cards", _house_cards(o.houses[me]))
    scores, guilders, reputation, advanced = o.scores, o.guilders, o.reputation, o.advanced
    workers, threats, hand_colours, canals = o.workers, o.threats, o.hand_colours, o.canals
    given, statues, majorities, public = o.statue_given, o.statues, o.majorities, o.public_hands
    houses, top_step = o.houses, params.top_step
    seats: list[float] = []
    for k in range(players):
        seat = (me + k) % players
        seats += _purse(
            scores[seat],
            guilders[seat],
            reputation[seat],
            advanced[seat],
            workers[seat],
            threats[seat],
            hand_colours[seat],
            canals[seat],
            given[seat],
            statues[seat],
            majorities[seat],
            public[seat],
            top_step,
        )
        seats += _houses(houses[seat])
    tensor.put("seats", seats)


def legal(observation: Observation) -> list[Action]:
    """The observation lists the seat's legal actions when it decides (alone or with others), as the
    referee's request carries them; empty when it is not deciding."""
    return list(observation.options)


TENSORS = TensorSpec(ACTIONS, FEATURES, encode, legal)
