"""Bruges for learning: the numbering of its actions and the tensor of a seat's observation.

A seat knows its own hand and house cards, every seat's public holdings, and of the others' hands
and the piles only colours and counts (B25); the tensor is written from that observation alone.
Seat blocks are relative to the observing seat (block 0 is that seat, then the others in seat
order after it), and so are the seats named in it (the start player, the deciding, active and
penalised seats), so one numbering serves every seat and table size. Field by field on the bot
page (docs/bots-bruges.md, "Tensors").
"""

from __future__ import annotations

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
from .observation import Observation
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
#: One seat's numbers in the ``seats`` block, in order (the bot page lists them).
SEAT_LENGTH = 4 + 3 * NUM_COLOURS + 2 + 2 + 2 + 3 + 1 + NUM_PERSONS + NUM_COLOURS + 1 + 2 * NUM_PERSONS
FEATURES = Features(
    (
        ("players", MAX_PLAYERS),
        ("start", MAX_PLAYERS),
        ("round", 3),
        ("phase", len(PHASE_NAMES)),
        ("turn", 5),
        ("decision", len(KINDS)),
        ("decider", MAX_PLAYERS),
        ("active", MAX_PLAYERS),
        ("piles", 2 + 2 * NUM_COLOURS + 2),
        ("dice", NUM_COLOURS),
        ("supply", NUM_COLOURS),
        ("statue_stack", 2),
        ("penalty", MAX_PLAYERS + 2 * NUM_COLOURS + MAX_PLAYERS),
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


def _cards(cards: tuple[int, ...] | list[int]) -> list[float]:
    """1 at each card."""
    values = list(_ZEROS_CARDS)
    for card in cards:
        values[card] = 1.0
    return values


def _colours(colours: tuple[int, ...], most: int) -> list[float]:
    return [min(count, most) / most for count in colours]


def _seat_one_hot(seat: int, me: int, players: int) -> list[float]:
    """One-hot of ``seat`` counted from ``me`` (all zeros for no seat, -1)."""
    values = [0.0] * MAX_PLAYERS
    if seat >= 0:
        values[(seat - me) % players] = 1.0
    return values


def _seat(observation: Observation, seat: int) -> list[float]:
    """One seat's public holdings (its persons, houses, markers and purse) and hand counts."""
    o, params = observation, observation.params
    statues = o.statues[seat]
    threats = [min(count, MOST_THREATS) / MOST_THREATS for count in o.threats[seat]]
    values = [
        min(o.scores[seat], MOST_POINTS) / MOST_POINTS,
        min(o.guilders[seat], MOST_GUILDERS) / MOST_GUILDERS,
        o.reputation[seat] / max(params.top_step, 1),
        float(o.advanced[seat]),
        *_colours(o.workers[seat], MOST_WORKERS),
        *threats,
        *_colours(o.hand_colours[seat], MOST_HAND),
        _FIFTHS[min(o.canals[seat][0], CANAL_SPACES)],
        _FIFTHS[min(o.canals[seat][1], CANAL_SPACES)],
        float(o.statue_given[seat][0]),
        float(o.statue_given[seat][1]),
        min(len(statues), 2) / 2,
        min(sum(statues), 2 * MOST_STATUE) / (2 * MOST_STATUE),
        *map(float, o.majorities[seat]),
    ]
    hand = sum(o.hand_colours[seat])
    values.append(min(hand, MOST_HAND) / MOST_HAND)
    public = list(_ZEROS_PERSONS)
    for card in o.public_hands[seat]:
        public[CARD_PERSON[card]] = 1.0
    values += public
    house_colours = [0] * NUM_COLOURS
    persons = list(_ZEROS_PERSONS)
    rotated = list(_ZEROS_PERSONS)
    empty = 0
    for house in o.houses[seat]:
        house_colours[house.colour] += 1
        if house.person < 0:
            empty += 1
            continue
        person = CARD_PERSON[house.person]
        persons[person] = 1.0
        if house.rotated:
            rotated[person] = 1.0
    values += _colours(tuple(house_colours), MOST_HOUSES)
    values.append(min(empty, MOST_HOUSES) / MOST_HOUSES)
    values += persons
    values += rotated
    return values


def encode(observation: Observation, tensor: Writer) -> None:
    """Everything the seat may know, seats counted from it; blocks of absent seats stay zero."""
    o = observation
    me, players, params = o.seat, o.players, o.params
    tensor.one_hot("players", players - 1)
    tensor.put("start", _seat_one_hot(o.start, me, players))
    tensor.put(
        "round",
        [
            min(o.round, MOST_ROUNDS) / MOST_ROUNDS,
            float(o.final_round >= 0),
            float(o.round == o.final_round),
        ],
    )
    tensor.one_hot("phase", o.phase)
    tensor.put(
        "turn",
        [
            min(o.turns, MOST_TURNS) / MOST_TURNS,
            min(o.lap, params.turns_per_round) / params.turns_per_round,
            float(o.turn_played),
            float(o.extra),
            float(o.extra_used),
        ],
    )
    tensor.one_hot("decision", KINDS.index(o.decision) if o.decision else -1)
    tensor.put("decider", _seat_one_hot(o.decider, me, players))
    tensor.put("active", _seat_one_hot(o.active, me, players))
    piles = [min(size, MOST_PILE) / MOST_PILE for size in o.pile_sizes]
    tops = [0.0] * (2 * NUM_COLOURS)
    for pile, colour in enumerate(o.pile_colours):
        if colour >= 0:
            tops[pile * NUM_COLOURS + colour] = 1.0
    tensor.put("piles", [*piles, *tops, min(o.extra_size, MOST_PILE) / MOST_PILE, float(o.extra_used)])
    tensor.put("dice", [die / 6 for die in o.dice])
    markers = max(params.threat_markers, 1)
    tensor.put("supply", [min(count, markers) / markers for count in o.supply])
    stack, statues = o.statue_stack, max(len(params.statues), 1)
    tensor.put(
        "statue_stack",
        [len(stack) / statues, min(stack[0], MOST_STATUE) / MOST_STATUE if stack else 0.0],
    )
    circles = [0.0] * NUM_COLOURS
    for colour in o.circles:
        circles[colour] = 1.0
    current = [0.0] * NUM_COLOURS
    if o.penalty >= 0:
        current[o.penalty] = 1.0
    jesters = [0.0] * MAX_PLAYERS
    for seat in o.jester_queue:
        jesters[(seat - me) % players] = 1.0
    tensor.put("penalty", [*_seat_one_hot(o.victim, me, players), *circles, *current, *jesters])
    tensor.put("discard", _cards(o.discard))
    tensor.put("hand", _cards(o.hand))
    tensor.put("blind", _colours(o.blind_colours, params.hand_size + 1))
    tensor.put("house_cards", _cards([house.card for house in o.houses[me]]))
    seats: list[float] = []
    for k in range(players):
        seats += _seat(o, (me + k) % players)
    tensor.put("seats", seats)


def legal(observation: Observation) -> list[Action]:
    """The observation lists the seat's legal actions when it decides (alone or with others), as the
    referee's request carries them; empty when it is not deciding."""
    return list(observation.options)


TENSORS = TensorSpec(ACTIONS, FEATURES, encode, legal)
