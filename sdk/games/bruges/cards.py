"""The 165 cards (B3, B20): 33 persons in five colours, as small integers.

A card is ``person * 5 + colour``; its id on the record is ``person:colour``. The
tables are built once at import so the engine only indexes tuples.
"""

from __future__ import annotations

from typing import NamedTuple

COLOURS = ("blue", "brown", "red", "purple", "yellow")
BLUE, BROWN, RED, PURPLE, YELLOW = range(5)
NUM_COLOURS = 5

#: Activation kinds of B18.
IMMEDIATE, WORKER, ONCE, PASSIVE_ACTION, PASSIVE_TRIGGER, FINAL = (
    "immediate",
    "worker",
    "once_per_round",
    "passive_action",
    "passive_trigger",
    "final",
)


class Person(NamedTuple):
    """One row of the B20 table; ``cost`` is the worker colour a ``worker`` person costs, else -1."""

    id: str
    name: str
    group: str
    price: int
    kind: str
    cost: int
    effect: str


def _p(pid: str, group: str, price: int, kind: str, effect: str) -> Person:
    cost = -1
    if kind.startswith("worker:"):
        kind, colour = kind.split(":")
        cost = COLOURS.index(colour)
    return Person(pid, pid.capitalize(), group, price, kind, cost, effect)


PERSONS: tuple[Person, ...] = (
    _p("prince", "Noble", 9, "worker:yellow", "move up 1 reputation step (not after a phase-2 step)"),
    _p("princess", "Noble", 6, PASSIVE_TRIGGER, "phase-2 reputation price 2 lower"),
    _p("count", "Noble", 12, FINAL, "2 points per flipped majority marker"),
    _p("servant", "Castle", 6, "worker:red", "draw 1 card from a named pile, then play one more card"),
    _p("coachman", "Castle", 9, "worker:yellow", "play one more card"),
    _p("cook", "Castle", 3, "worker:brown", "take 4 guilders"),
    _p("mayor", "Bureaucrat", 6, FINAL, "2 points per Bureaucrat"),
    _p("councilman", "Bureaucrat", 3, PASSIVE_TRIGGER, "+1 point per reputation step gained"),
    _p("lawyer", "Bureaucrat", 6, PASSIVE_ACTION, "action I gives 3 workers"),
    _p("bishop", "Church", 9, FINAL, "1 point per 2 workers"),
    _p("priest", "Church", 6, PASSIVE_TRIGGER, "+2 points after each of your circles resolves"),
    _p("nun", "Church", 3, ONCE, "return 1 worker of a named colour: +1 point"),
    _p("accountant", "Merchant", 6, ONCE, "take 2 guilders"),
    _p("banker", "Merchant", 9, FINAL, "1 point per 3 guilders"),
    _p("shipowner", "Merchant", 9, "worker:blue", "build the next space of a section without a card"),
    _p("stonemason", "Craftsman", 3, PASSIVE_ACTION, "action V with a worker of any colour"),
    _p("carpenter", "Craftsman", 6, PASSIVE_ACTION, "action V: +1 point"),
    _p("dyer", "Craftsman", 6, PASSIVE_ACTION, "action IV with a card of any colour"),
    _p("painter", "Artist", 12, FINAL, "1 point per distinct group"),
    _p("sculptor", "Artist", 6, PASSIVE_TRIGGER, "+3 points per completed section"),
    _p("poet", "Artist", 6, IMMEDIATE, "+1 point per person in your play area"),
    _p("jester", "Entertainer", 3, IMMEDIATE, "each other player takes 1 purple marker"),
    _p("minstrel", "Entertainer", 3, PASSIVE_ACTION, "+2 guilders per later recruit"),
    _p("juggler", "Entertainer", 6, PASSIVE_ACTION, "action II uses the highest die"),
    _p("jailer", "Protector", 6, "worker:purple", "return 1 threat marker of a named colour: +1 point"),
    _p("watchman", "Protector", 3, PASSIVE_TRIGGER, "Raid takes nothing"),
    _p("knight", "Protector", 6, PASSIVE_TRIGGER, "cancel a penalty with a worker of its colour"),
    _p("beggar", "Underworld", 0, ONCE, "take 1 guilder"),
    _p("thief", "Underworld", 3, "worker:purple", "each other player holding a guilder gives you 1"),
    _p("smuggler", "Underworld", 3, ONCE, "swap 1 worker for one of another colour"),
    _p("inventor", "Scholar", 6, PASSIVE_TRIGGER, "phase 1: fill the hand to one more card"),
    _p("alchemist", "Scholar", 6, IMMEDIATE, "take 6 guilders"),
    _p("physician", "Scholar", 6, PASSIVE_TRIGGER, "Plague takes nothing"),
)
NUM_PERSONS = len(PERSONS)
NUM_CARDS = NUM_PERSONS * NUM_COLOURS
PERSON_INDEX = {p.id: i for i, p in enumerate(PERSONS)}
GROUPS = tuple(dict.fromkeys(p.group for p in PERSONS))

(
    PRINCE, PRINCESS, COUNT, SERVANT, COACHMAN, COOK, MAYOR, COUNCILMAN, LAWYER, BISHOP, PRIEST, NUN,
    ACCOUNTANT, BANKER, SHIPOWNER, STONEMASON, CARPENTER, DYER, PAINTER, SCULPTOR, POET, JESTER, MINSTREL,
    JUGGLER, JAILER, WATCHMAN, KNIGHT, BEGGAR, THIEF, SMUGGLER, INVENTOR, ALCHEMIST, PHYSICIAN,
) = range(NUM_PERSONS)  # fmt: skip

#: Per card: its person, colour and price (tables, so the engine never divides).
CARD_PERSON = tuple(c // NUM_COLOURS for c in range(NUM_CARDS))
CARD_COLOUR = tuple(c % NUM_COLOURS for c in range(NUM_CARDS))
CARD_PRICE = tuple(PERSONS[c // NUM_COLOURS].price for c in range(NUM_CARDS))
#: Persons a player may activate on their turn (B18 ``worker`` and ``once_per_round``).
ACTIVATABLE = frozenset(i for i, p in enumerate(PERSONS) if p.kind in (WORKER, ONCE))
BUREAUCRATS = frozenset(i for i, p in enumerate(PERSONS) if p.group == "Bureaucrat")
PERSON_GROUP = tuple(GROUPS.index(p.group) for p in PERSONS)


def card_of(person: int, colour: int) -> int:
    return person * NUM_COLOURS + colour


def card_id(card: int) -> str:
    """The card's record id, ``person:colour``."""
    return f"{PERSONS[CARD_PERSON[card]].id}:{COLOURS[CARD_COLOUR[card]]}"


def card_from_id(text: str) -> int:
    """Inverse of :func:`card_id`; ValueError on anything else."""
    person, _, colour = str(text).partition(":")
    if person not in PERSON_INDEX or colour not in COLOURS:
        raise ValueError(f"not a card id: {text!r}")
    return card_of(PERSON_INDEX[person], COLOURS.index(colour))


def card_name(card: int) -> str:
    return f"{COLOURS[CARD_COLOUR[card]]} {PERSONS[CARD_PERSON[card]].name}"
