"""The cards: 54 cities and 75 events (rulings C1, C2), with the masks the engine works on.

Cities are numbered 0..53 in the order the rulebook lists them; a set of cities is
an ``int`` bit mask (bit ``i`` = city ``i``). Events are identified by their kind,
:class:`EventType`; identical cards (four Unification, six Attack, ...) share one kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Empire(IntEnum):
    """The eight empires, in the order that also links each to the next discipline (C2)."""

    ROME = 0
    GREECE = 1
    CARTHAGE = 2
    EGYPT = 3
    PERSIA = 4
    CELTS = 5
    JEWS = 6
    ETRUSCANS = 7


class Discipline(IntEnum):
    """Discipline ``i`` is the main discipline of empire ``i``."""

    ARMY = 0
    CULTURE = 1
    SEAFARING = 2
    AGRICULTURE = 3
    SLAVERY = 4
    METALLURGY = 5
    FINANCES = 6
    ENGINEERING = 7


class Side(IntEnum):
    """The two halves of the map that Unrest and Great unrest name."""

    WEST = 0
    EAST = 1


@dataclass(frozen=True, slots=True)
class City:
    """One city card. ``points[d]`` is its strength in discipline ``d`` (C2)."""

    id: int
    name: str
    empire: Empire | None
    capital: bool
    wonder: bool
    points: tuple[int, ...]


_NAMES: tuple[tuple[Empire | None, tuple[str, ...]], ...] = (
    (Empire.ROME, ("Rome", "Capua", "Milan", "Brundisium", "Tarraco", "Ravenna")),
    (Empire.GREECE, ("Athens", "Sparta", "Syracuse", "Olympia", "Ephesus", "Rhodes")),
    (Empire.CARTHAGE, ("Carthage", "Utica", "Cartagena", "Gadiz", "Karalis", "Leptis Magna")),
    (Empire.EGYPT, ("Memfis", "Alexandria", "Giza", "Sakkara", "Heliopolis", "Abydos")),
    (Empire.PERSIA, ("Persepolis", "Babylon", "Halicarnassus", "Sardes", "Susa", "Ninive")),
    (Empire.CELTS, ("Alesia", "Hallstatt", "Lutetia", "Avaricum", "Narbo", "Lyon")),
    (Empire.JEWS, ("Jerusalem", "Jericho", "Betlehem", "Betania", "Hebron", "Joppa")),
    (Empire.ETRUSCANS, ("Velzna", "Clevsin", "Veii", "Arrentium", "Vetluna", "Fuflona")),
    (None, ("Lisbon", "Knossos", "Genova", "Madrid", "Petra", "Ur")),
)
_WONDERS = frozenset({"Giza", "Babylon", "Ephesus", "Olympia", "Halicarnassus", "Rhodes", "Alexandria"})


def _points(empire: Empire | None, capital: bool) -> tuple[int, ...]:
    if empire is None:
        return (0,) * len(Discipline)
    if capital:
        return tuple(3 if d == empire else 1 for d in range(len(Discipline)))
    follower = (empire + 1) % len(Empire)
    return tuple(3 if d == empire else 1 if d == follower else 0 for d in range(len(Discipline)))


def _cities() -> tuple[City, ...]:
    cities: list[City] = []
    for empire, names in _NAMES:
        for index, name in enumerate(names):
            capital = empire is not None and index == 0
            cities.append(
                City(len(cities), name, empire, capital, name in _WONDERS, _points(empire, capital))
            )
    return tuple(cities)


CITIES: tuple[City, ...] = _cities()
NUM_CITIES = len(CITIES)
CITY_BY_NAME: dict[str, City] = {city.name: city for city in CITIES}
ALL_CITIES = (1 << NUM_CITIES) - 1

EMPIRE_MASKS: tuple[int, ...] = tuple(
    sum(1 << c.id for c in CITIES if c.empire == empire) for empire in Empire
)
NEUTRAL_MASK = sum(1 << c.id for c in CITIES if c.empire is None)
CAPITAL_MASK = sum(1 << c.id for c in CITIES if c.capital)
WONDER_MASK = sum(1 << c.id for c in CITIES if c.wonder)
#: Regular (non-capital) cities of each empire: what Anger of the gods may take.
REGULAR_MASKS: tuple[int, ...] = tuple(mask & ~CAPITAL_MASK for mask in EMPIRE_MASKS)
SIDE_EMPIRES: tuple[tuple[Empire, ...], ...] = (
    (Empire.ROME, Empire.CARTHAGE, Empire.CELTS, Empire.ETRUSCANS),
    (Empire.GREECE, Empire.EGYPT, Empire.PERSIA, Empire.JEWS),
)
#: Cities of each side (never neutral ones, C8).
SIDE_MASKS: tuple[int, ...] = tuple(sum(EMPIRE_MASKS[e] for e in empires) for empires in SIDE_EMPIRES)
#: ``CITY_EMPIRE[c]``: the empire of city ``c``, or -1 for a neutral city.
CITY_EMPIRE: tuple[int, ...] = tuple(-1 if c.empire is None else int(c.empire) for c in CITIES)
#: Per discipline, the cities worth 3 and those worth 1 in it (for Games totals by popcount).
STRONG_MASKS: tuple[int, ...] = tuple(
    sum(1 << c.id for c in CITIES if c.points[d] == 3) for d in range(len(Discipline))
)
WEAK_MASKS: tuple[int, ...] = tuple(
    sum(1 << c.id for c in CITIES if c.points[d] == 1) for d in range(len(Discipline))
)


def mask_of(*cities: int) -> int:
    """The mask of the given city ids."""
    mask = 0
    for city in cities:
        mask |= 1 << city
    return mask


def cities_of(mask: int) -> list[int]:
    """City ids in ``mask``, ascending."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class EventType(IntEnum):
    """One kind of event card; :data:`EVENT_CARDS` lists the physical cards."""

    COMMANDER_ROME = 0
    COMMANDER_GREECE = 1
    COMMANDER_CARTHAGE = 2
    COMMANDER_EGYPT = 3
    COMMANDER_PERSIA = 4
    COMMANDER_CELTS = 5
    COMMANDER_JEWS = 6
    COMMANDER_ETRUSCANS = 7
    BIG_FESTIVAL = 8
    MEDIUM_FESTIVAL = 9
    SMALL_FESTIVAL = 10
    UNIFICATION = 11
    CHARISMA = 12
    ANGER_ROME = 13
    ANGER_GREECE = 14
    ANGER_CARTHAGE = 15
    ANGER_EGYPT = 16
    ANGER_PERSIA = 17
    ANGER_CELTS = 18
    ANGER_JEWS = 19
    ANGER_ETRUSCANS = 20
    GAMES_ARMY = 21
    GAMES_CULTURE = 22
    GAMES_SEAFARING = 23
    GAMES_AGRICULTURE = 24
    GAMES_SLAVERY = 25
    GAMES_METALLURGY = 26
    GAMES_FINANCES = 27
    GAMES_ENGINEERING = 28
    PLAGUE = 29
    FRIENDLY_EXCHANGE = 30
    UNREST = 31
    GREAT_UNREST = 32
    LOSS_OF_INFLUENCE = 33
    BASIC_PROTECTION = 34
    PROTECTION = 35
    GREAT_PROTECTION = 36
    ATTACK = 37
    VICTORY = 38
    INFLUENCE_ON_WONDERS = 39
    REBELLION = 40
    TRADE = 41
    ECONOMIC_CRISIS_METALLURGY_ARMY = 42
    ECONOMIC_CRISIS_ENGINEERING_CULTURE = 43
    ECONOMIC_CRISIS_AGRICULTURE_SEAFARING = 44
    ECONOMIC_CRISIS_SLAVERY_FINANCES = 45
    EDUCATION = 46
    BARBARIANS = 47
    SILENCE_BEFORE_THE_STORM = 48
    UNCOVERING_EXCAVATIONS = 49
    CURSE = 50
    ESPIONAGE = 51
    FLOOD = 52

    @property
    def display_name(self) -> str:
        """The card's title as printed (Economic crises add their pair to tell them apart)."""
        return EVENT_NAMES[self]


E = EventType
NUM_EVENT_TYPES = len(EventType)
#: ``EVENT_TYPES[i]`` is ``EventType(i)``, without the cost of an enum call.
EVENT_TYPES: tuple[EventType, ...] = tuple(EventType)
COMMANDERS: tuple[EventType, ...] = tuple(EventType(E.COMMANDER_ROME + e) for e in Empire)
ANGERS: tuple[EventType, ...] = tuple(EventType(E.ANGER_ROME + e) for e in Empire)
GAMES: tuple[EventType, ...] = tuple(EventType(E.GAMES_ARMY + d) for d in Discipline)
ECONOMIC_CRISES: tuple[EventType, ...] = (
    E.ECONOMIC_CRISIS_METALLURGY_ARMY,
    E.ECONOMIC_CRISIS_ENGINEERING_CULTURE,
    E.ECONOMIC_CRISIS_AGRICULTURE_SEAFARING,
    E.ECONOMIC_CRISIS_SLAVERY_FINANCES,
)
PROTECTIONS: tuple[EventType, ...] = (E.BASIC_PROTECTION, E.PROTECTION, E.GREAT_PROTECTION)
#: The two disciplines each Economic crisis names, in the order printed.
CRISIS_DISCIPLINES: dict[EventType, tuple[Discipline, Discipline]] = {
    E.ECONOMIC_CRISIS_METALLURGY_ARMY: (Discipline.METALLURGY, Discipline.ARMY),
    E.ECONOMIC_CRISIS_ENGINEERING_CULTURE: (Discipline.ENGINEERING, Discipline.CULTURE),
    E.ECONOMIC_CRISIS_AGRICULTURE_SEAFARING: (Discipline.AGRICULTURE, Discipline.SEAFARING),
    E.ECONOMIC_CRISIS_SLAVERY_FINANCES: (Discipline.SLAVERY, Discipline.FINANCES),
}
#: ``CRISIS_MASKS[e - first crisis]``: the cities of the two empires whose disciplines the crisis names.
CRISIS_MASKS: tuple[int, ...] = tuple(
    EMPIRE_MASKS[CRISIS_DISCIPLINES[ev][0]] | EMPIRE_MASKS[CRISIS_DISCIPLINES[ev][1]]
    for ev in ECONOMIC_CRISES
)

_ADJECTIVES = ("Roman", "Greek", "Carthaginian", "Egyptian", "Persian", "Celtic", "Jewish", "Etruscan")
_COMMANDER_NAMES = ("Julius Caesar", "Leonidas", "Hannibal", "Ramesses", "Darius", "Vercingetorix", "Mojžiš")
_ANGER_ADJECTIVES = ("Roman", "Greek", "Carthagian", "Egyptian", "Persian", "Celtic", "Jewish", "Etruscan")


def _event_names() -> tuple[str, ...]:
    names: dict[EventType, str] = {}
    for e, (adjective, person) in enumerate(zip(_ADJECTIVES, (*_COMMANDER_NAMES, "Porsenna"), strict=True)):
        names[COMMANDERS[e]] = f"{adjective} commander {person}"
        names[ANGERS[e]] = f"Anger of the gods {_ANGER_ADJECTIVES[e]} cities"
    for d in Discipline:
        names[GAMES[d]] = f"Games {d.name.capitalize()}"
    for ev, (first, second) in CRISIS_DISCIPLINES.items():
        names[ev] = f"Economic crisis ({first.name.lower()} and {second.name.lower()})"
    names.update(
        {
            E.BIG_FESTIVAL: "Big festival",
            E.MEDIUM_FESTIVAL: "Medium festival",
            E.SMALL_FESTIVAL: "Small festival",
            E.UNIFICATION: "Unification",
            E.CHARISMA: "Charisma",
            E.PLAGUE: "Plague",
            E.FRIENDLY_EXCHANGE: "Friendly exchange",
            E.UNREST: "Unrest",
            E.GREAT_UNREST: "Great unrest",
            E.LOSS_OF_INFLUENCE: "Loss of influence",
            E.BASIC_PROTECTION: "Basic protection",
            E.PROTECTION: "Protection",
            E.GREAT_PROTECTION: "Great protection",
            E.ATTACK: "Attack",
            E.VICTORY: "Victory",
            E.INFLUENCE_ON_WONDERS: "Influence on wonders",
            E.REBELLION: "Rebellion",
            E.TRADE: "Trade",
            E.EDUCATION: "Education",
            E.BARBARIANS: "Barbarians",
            E.SILENCE_BEFORE_THE_STORM: "Silence before the storm",
            E.UNCOVERING_EXCAVATIONS: "Uncovering excavations",
            E.CURSE: "Curse",
            E.ESPIONAGE: "Espionage",
            E.FLOOD: "Flood",
        }
    )
    return tuple(names[ev] for ev in EventType)


EVENT_NAMES: tuple[str, ...] = _event_names()

#: Copies of each kind in the full game (C1: each card line of the rulebook is one copy).
_COPIES: dict[EventType, int] = {
    E.UNIFICATION: 4,
    E.UNREST: 2,
    E.PROTECTION: 2,
    E.ATTACK: 6,
    E.VICTORY: 2,
    E.REBELLION: 2,
    E.TRADE: 4,
    E.EDUCATION: 3,
    E.BARBARIANS: 2,
    E.UNCOVERING_EXCAVATIONS: 2,
    E.CURSE: 3,
    E.ESPIONAGE: 2,
}
#: The 75 event cards of the full game, one entry per card, in rulebook order.
EVENT_CARDS: tuple[EventType, ...] = tuple(ev for ev in EventType for _ in range(_COPIES.get(ev, 1)))

#: Per event kind, the protection cards that cover it, weakest first (C12).
_BASIC_COVERS = frozenset({*COMMANDERS, *ANGERS, E.ATTACK, E.BARBARIANS})
_PROTECTION_COVERS = _BASIC_COVERS | {E.PLAGUE, E.UNREST, E.GREAT_UNREST, E.TRADE}


def _covering(ev: EventType) -> tuple[EventType, ...]:
    if ev in _BASIC_COVERS:
        return PROTECTIONS
    if ev in _PROTECTION_COVERS:
        return (E.PROTECTION, E.GREAT_PROTECTION)
    return (E.GREAT_PROTECTION,)


COVERED_BY: tuple[tuple[EventType, ...], ...] = tuple(_covering(ev) for ev in EventType)
