"""Cities for learning: the numbering of its actions and the tensor of a seat's observation.

Field by field on the bot page (docs/bots-cities.md, "Tensors"). The tensor is written from the
observing seat's side: seat blocks start with that seat, then the others in turn order after it.

Actions are numbered as the engine states them, so a number names one action whoever takes it:
targets are seat numbers 0-5 and cities their ids 0-53. Every :class:`Play` the rules allow is
numbered, event by event (the product of the choices that event takes), except Education's
exchange: it gives back any 1-5 events of its player's hand, 3,478,267 multisets, too many for a
mask at every step. So a play decision at which an exchange is legal is taken in parts: its other
actions are parts of their own, and an exchange is one :class:`ExchangeEvent` per event given
back, kinds in ascending order and never more copies than the hand may give back, then
:data:`EXCHANGE_END`. Each legal exchange is made by exactly one such sequence, and the events
chosen so far are in the tensor (block ``exchange_chosen``).
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import compress
from operator import mul
from typing import Any

from sdk.games.tensors import ActionSpace, Features, Parts, TensorSpec, Vector, Writer, bits

from .actions import (
    Action,
    Deck,
    Draw,
    EducationMode,
    Exchange,
    GiveCity,
    GiveEvent,
    Pass,
    Play,
    React,
)
from .cards import (
    ALL_CITIES,
    ANGERS,
    CITY_EMPIRE,
    EVENT_CARDS,
    EVENT_TYPES,
    NEUTRAL_MASK,
    NUM_CITIES,
    NUM_EVENT_TYPES,
    PROTECTIONS,
    REGULAR_MASKS,
    Empire,
    EventType,
    Side,
    cities_of,
)
from .observation import Observation, PlayedEvent
from .params import MAX_PLAYERS
from .phases import PHASE_NAMES, STAGE_NAMES, Decision
from .plays import (
    CITY,
    EDUCATION,
    KINDS,
    MAX_RETURNS,
    PLAIN,
    SHAPE,
    SWAP,
    TARGET,
    UNIFY,
    UNREST,
    iter_plays,
    new_play,
)
from .state import State

_SEATS = range(MAX_PLAYERS)
_EDUCATION = int(EventType.EDUCATION)
#: Copies of each kind in the full game: the most a hand can hold.
COPIES: tuple[int, ...] = tuple(EVENT_CARDS.count(ev) for ev in EventType)
#: Cities each event that takes one city may take (the rest of its choice is the seat holding it).
_TAKEABLE: dict[int, int] = {
    **{int(ev): REGULAR_MASKS[e] for e, ev in enumerate(ANGERS)},
    int(EventType.ATTACK): ALL_CITIES,
    int(EventType.REBELLION): ALL_CITIES,
    int(EventType.LOSS_OF_INFLUENCE): NEUTRAL_MASK,
}


def _plays(ev: int) -> list[Play]:
    """Every play of event kind ``ev`` the rules could ever allow, in a fixed order (built with the
    engine's fast constructor: there are tens of thousands)."""
    event, shape = EVENT_TYPES[ev], SHAPE[ev]
    if shape == PLAIN:
        return [new_play(event)]
    if shape == CITY:
        return [new_play(event, target=t, take_city=c) for t in _SEATS for c in cities_of(_TAKEABLE[ev])]
    if shape == SWAP:
        return [
            new_play(event, target=t, take_city=take, give_city=give)
            for t in _SEATS
            for take in range(NUM_CITIES)
            for give in range(NUM_CITIES)
            if give != take
        ]
    if shape == TARGET:
        return [new_play(event, target=t) for t in _SEATS]
    if shape == UNREST:
        return [new_play(event, side=side) for side in Side]
    if shape == UNIFY:
        return [new_play(event, empire=empire) for empire in Empire]
    if shape == EDUCATION:  # its exchanges are taken in parts
        return [new_play(event, target=t, education=EducationMode.DISCARD) for t in _SEATS]
    return []  # protection: only ever revealed


def _listed() -> list[Action]:
    return [
        Draw(Deck.CITY),
        Draw(Deck.EVENT),
        Pass(),
        React(None),
        *(React(card) for card in PROTECTIONS),
        Exchange(True),
        Exchange(False),
        *(GiveCity(city) for city in range(NUM_CITIES)),
        *(GiveEvent(event) for event in EventType),
        *(play for ev in KINDS for play in _plays(ev)),
    ]


@dataclass(frozen=True, slots=True)
class ExchangeEvent:
    """A part of Education's exchange: one more event of ``kind`` given back (kinds in ascending order)."""

    kind: int


@dataclass(frozen=True, slots=True)
class ExchangeEnd:
    """The last part of Education's exchange: the events chosen so far are given back."""


EXCHANGE_END = ExchangeEnd()
ExchangePart = ExchangeEvent | ExchangeEnd


class _ListedAtFirstUse(ActionSpace[Action | ExchangePart]):
    """The action space, listed at first use, not when the plugin is loaded: the referee and the
    command line load every plugin and never number an action, and the listing takes a tenth of a
    second."""

    def __init__(self, listing: Callable[[], list[Action | ExchangePart]]) -> None:
        self._listing: Callable[[], list[Action | ExchangePart]] | None = listing

    def _list_once(self) -> None:
        listing = self._listing
        if listing is not None:
            super().__init__(listing())
            self._listing = None

    @property
    def size(self) -> int:
        self._list_once()
        return super().size

    def index(self, action: Action | ExchangePart) -> int:
        self._list_once()
        return super().index(action)

    def indices(self, actions: Iterable[Action | ExchangePart]) -> list[int]:
        self._list_once()
        return super().indices(actions)

    def action(self, index: int) -> Action | ExchangePart:
        self._list_once()
        return super().action(index)


ACTIONS = _ListedAtFirstUse(lambda: [*_listed(), EXCHANGE_END, *(ExchangeEvent(kind) for kind in KINDS)])

NUM_EMPIRES = len(Empire)
DECISIONS = tuple(Decision)
MOST_SCORE = NUM_EMPIRES + 5
MOST_EVENTS = 20
MOST_PLAYS = 3
MOST_SILENCE = 2
MOST_GIVE = 6
#: Per seat in "seats": score, hand size, face-down events, silenced turns, cursed, no city.
SEAT_NUMBERS = 6
FEATURES = Features(
    (
        ("players", MAX_PLAYERS),
        ("seat", MAX_PLAYERS),
        ("phase", len(PHASE_NAMES)),
        ("decision", len(DECISIONS)),
        ("waiting", len(DECISIONS)),
        ("waiting_seat", MAX_PLAYERS),
        ("active", MAX_PLAYERS),
        ("turn", 7),
        ("seats", MAX_PLAYERS * SEAT_NUMBERS),
        ("held", MAX_PLAYERS * NUM_CITIES),
        ("completed", MAX_PLAYERS * NUM_EMPIRES),
        ("wonders", MAX_PLAYERS),
        ("city_deck", NUM_CITIES),
        ("decks", 2),
        ("hand", NUM_EVENT_TYPES),
        ("own_face_down", NUM_EVENT_TYPES),
        ("face_up", NUM_EVENT_TYPES),
        ("event", NUM_EVENT_TYPES),
        ("event_player", MAX_PLAYERS),
        ("event_target", MAX_PLAYERS),
        ("event_cities", 2 * NUM_CITIES),
        ("event_choice", len(Side) + NUM_EMPIRES + len(EducationMode) + 1),
        ("event_stage", len(STAGE_NAMES)),
        ("affected", MAX_PLAYERS),
        ("revealed", MAX_PLAYERS),
        ("giving", MAX_PLAYERS + 1 + MAX_PLAYERS + 3),
        ("winners", MAX_PLAYERS),
        ("playable", NUM_EVENT_TYPES),
        ("protections", len(PROTECTIONS)),
        ("giveable", NUM_CITIES),
        ("give_count", 1),
        ("exchange_chosen", NUM_EVENT_TYPES),
    )
)

_EMPIRE_FIRST = tuple(CITY_EMPIRE.index(e) for e in range(NUM_EMPIRES))
_PER_COPY = tuple(1.0 / copies for copies in COPIES)


# Parts that change at few decisions are remembered as float32 arrays, which a block takes as one
# memory copy. Callers only read them (``put`` them, or ``+=`` them onto their own array).


@functools.lru_cache(maxsize=4096)
def _bits(mask: int) -> Vector:
    """A city mask as floats."""
    return array("f", bits(mask, NUM_CITIES))


@functools.lru_cache(maxsize=1024)
def _completed(done: int) -> Vector:
    return array("f", [float(done >> first & 1) for first in _EMPIRE_FIRST])


@functools.lru_cache(maxsize=4096)
def _per_kind(counts: tuple[int, ...]) -> Vector:
    """Copies of each kind over the full game's copies of it."""
    return array("f", map(mul, counts, _PER_COPY))


def _flags(kinds: tuple[EventType, ...], length: int) -> list[float]:
    values = [0.0] * length
    for kind in kinds:
        values[kind] = 1.0
    return values


def encode(observation: Observation, tensor: Writer) -> None:
    """Seat blocks from the observing seat's side; blocks beyond the table's size stay zero."""
    me, players = observation.seat, observation.players
    order = [(me + k) % players for k in range(players)]

    def relative(seat: int) -> int:
        return (seat - me) % players if seat >= 0 else -1

    def seat_bits(mask: int) -> list[float]:
        return [float(mask >> seat & 1) for seat in order]

    tensor.one_hot("players", players - 1)
    tensor.one_hot("seat", me)
    tensor.one_hot("phase", PHASE_NAMES.index(observation.phase))
    pending = observation.pending
    if pending is not None:
        tensor.one_hot("decision", DECISIONS.index(pending.kind))
    if observation.waiting is not None:
        tensor.one_hot("waiting", DECISIONS.index(observation.waiting))
        tensor.one_hot("waiting_seat", relative(observation.waiting_seat))
    tensor.one_hot("active", relative(observation.active))
    tensor.put(
        "turn",
        [
            min(observation.round / observation.params.max_rounds, 1.0),
            min(observation.plays_left, MOST_PLAYS) / MOST_PLAYS,
            float(observation.curse_now),
            float(observation.silent_now),
            float(observation.no_city_now),
            float(observation.quiet),
            float(observation.played),
        ],
    )
    held, done, scores, sizes = observation.held, observation.done, observation.scores, observation.hand_sizes
    face_down, silenced, cursed, no_city = (
        observation.face_down,
        observation.silenced,
        observation.cursed,
        observation.no_city,
    )
    seats: list[float] = []
    cities, completed = array("f"), array("f")
    for seat in order:
        seats += (
            scores[seat] / MOST_SCORE,
            min(sizes[seat], MOST_EVENTS) / MOST_EVENTS,
            min(face_down[seat], MOST_EVENTS) / MOST_EVENTS,
            min(silenced[seat], MOST_SILENCE) / MOST_SILENCE,
            float(cursed >> seat & 1),
            float(no_city >> seat & 1),
        )
        cities += _bits(held[seat])
        completed += _completed(done[seat])
    tensor.put("seats", seats)
    tensor.put("held", cities)
    tensor.put("completed", completed)
    tensor.one_hot("wonders", relative(observation.wonders))
    tensor.put("city_deck", _bits(observation.city_deck))
    tensor.put(
        "decks",
        [observation.city_deck.bit_count() / NUM_CITIES, observation.event_deck_size / len(EVENT_CARDS)],
    )
    tensor.put("hand", _per_kind(observation.hand))
    tensor.put("own_face_down", _per_kind(observation.own_face_down))
    tensor.put("face_up", _per_kind(_face_up(observation)))
    _encode_resolving(observation, tensor, relative, seat_bits)
    if pending is not None:
        tensor.put("playable", _flags(pending.playable, NUM_EVENT_TYPES))
        tensor.put("protections", [float(card in pending.protections) for card in PROTECTIONS])
        tensor.put("giveable", _bits(pending.cities))
        tensor.put("give_count", [min(pending.count, MOST_GIVE) / MOST_GIVE])


class _FaceUpCounts:
    """Copies of each kind lying face up in a log, counted on from the last log seen.

    Every seat's tensor at every step reads the whole log, which only grows: the counts of the
    last log are kept with its last record, and a log holding that same record at the same place
    begins with the same records (logs are appended to, and a copied state shares its records),
    so only the records after it are counted. What is kept is one immutable snapshot, replaced
    whole, so encoders in several threads never see another's counts half made."""

    def __init__(self) -> None:
        self.seen: tuple[int, PlayedEvent | None, tuple[int, ...]] = (0, None, (0,) * NUM_EVENT_TYPES)

    def of(self, log: tuple[PlayedEvent, ...]) -> tuple[int, ...]:
        length, last, counts = self.seen
        if not (length and len(log) >= length and log[length - 1] is last):
            length, counts = 0, (0,) * NUM_EVENT_TYPES
        if len(log) > length:
            more = list(counts)
            for record in log[length:]:
                more[record.play.event] += 1
                for _, card in record.revealed:
                    more[card] += 1
            counts = tuple(more)
            self.seen = (len(log), log[-1], counts)
        return counts


_LOGGED = _FaceUpCounts()


def _face_up(observation: Observation) -> tuple[int, ...]:
    """Copies of each kind lying face up: events played and protection revealed."""
    counts = _LOGGED.of(observation.log)
    event = observation.resolving
    if event is None:
        return counts
    more = list(counts)
    more[event.play.event] += 1
    for _, card in event.revealed:
        more[card] += 1
    return tuple(more)


def _encode_resolving(
    observation: Observation,
    tensor: Writer,
    relative: Callable[[int], int],
    seat_bits: Callable[[int], list[float]],
) -> None:
    event = observation.resolving
    if event is None:
        return
    play = event.play
    tensor.one_hot("event", play.event)
    tensor.one_hot("event_player", relative(event.seat))
    if play.target is not None:
        tensor.one_hot("event_target", relative(play.target))
    taken = [0.0] * (2 * NUM_CITIES)
    if play.take_city is not None:
        taken[play.take_city] = 1.0
    if play.give_city is not None:
        taken[NUM_CITIES + play.give_city] = 1.0
    tensor.put("event_cities", taken)
    choice = [0.0] * (len(Side) + NUM_EMPIRES + len(EducationMode) + 1)
    if play.side is not None:
        choice[play.side] = 1.0
    if play.empire is not None:
        choice[len(Side) + play.empire] = 1.0
    if play.education is not None:
        choice[len(Side) + NUM_EMPIRES + list(EducationMode).index(play.education)] = 1.0
    choice[-1] = event.returned / MAX_RETURNS
    tensor.put("event_choice", choice)
    tensor.one_hot("event_stage", STAGE_NAMES.index(event.stage))
    tensor.put("affected", seat_bits(event.affected))
    revealed = 0
    for seat, _ in event.revealed:
        revealed |= 1 << seat
    tensor.put("revealed", seat_bits(revealed))
    giving = [0.0] * (2 * MAX_PLAYERS + 4)
    if event.give_seat >= 0:
        giving[relative(event.give_seat)] = 1.0
        if event.give_to == -1:
            giving[MAX_PLAYERS] = 1.0  # to the city deck
        else:
            giving[MAX_PLAYERS + 1 + relative(event.give_to)] = 1.0
    _, left_a, _, left_b = event.give
    giving[-3:] = [
        min(left_a + left_b, MOST_GIVE) / MOST_GIVE,
        min(event.give_events, 5) / 5,
        float(event.lost),
    ]
    tensor.put("giving", giving)
    tensor.put("winners", seat_bits(event.winners))


def legal(observation: Observation) -> list[Action]:
    """The deciding seat's actions from its pending decision; plays listed as the engine lists them."""
    pending = observation.pending
    if pending is None:
        return []
    kind = pending.kind
    if kind == Decision.PLAY:
        actions: list[Action] = [Pass()]
        table = _public_table(observation)
        for ev in pending.playable:
            actions.extend(iter_plays(table, observation.seat, ev))
        return actions
    if kind == Decision.REACT:
        return [React(None), *(React(card) for card in pending.protections)]
    if kind == Decision.GIVE_CITY:
        return [GiveCity(city) for city in cities_of(pending.cities)]
    if kind == Decision.GIVE_EVENT:
        return [GiveEvent(EVENT_TYPES[ev]) for ev in compress(KINDS, observation.hand)]
    if kind == Decision.EXCHANGE:
        return [Exchange(True), Exchange(False)]
    return [Draw(deck) for deck in pending.draw]


def _public_table(observation: Observation) -> State:
    """What the choices of a play depend on (C9): the table, the seat's own hand, the deck sizes.

    The event deck's cards are secret; the plays only ask whether it is empty, so placeholders of
    its size stand in for them."""
    hands = [[0] * NUM_EVENT_TYPES for _ in range(observation.players)]
    hands[observation.seat] = list(observation.hand)
    return State(
        observation.params,
        observation.players,
        held=list(observation.held),
        hands=hands,
        hand_sizes=list(observation.hand_sizes),
        city_deck=cities_of(observation.city_deck),
        event_deck=[0] * observation.event_deck_size,
    )


def _exchanging(observation: Observation) -> bool:
    """Whether an exchange is among the seat's plays: it may play Education and hold another event."""
    pending = observation.pending
    return (
        pending is not None
        and pending.kind == Decision.PLAY
        and EventType.EDUCATION in pending.playable
        and sum(observation.hand) > 1
    )


def _exchange_options(observation: Observation, chosen: tuple[Any, ...]) -> list[Action | ExchangePart]:
    """First every legal action but the exchanges, and the first event of an exchange; then the
    events that may follow the last one chosen (its kind or a later one, within the hand and the
    five events an exchange gives back), and the end."""
    can_give = [count - (kind == _EDUCATION) for kind, count in enumerate(observation.hand)]
    if not chosen:
        return [
            *(action for action in legal(observation) if not _is_exchange(action)),
            *(ExchangeEvent(kind) for kind in KINDS if can_give[kind]),
        ]
    kinds = [part.kind for part in chosen]
    more: list[Action | ExchangePart] = []
    if len(kinds) < MAX_RETURNS:
        more = [ExchangeEvent(kind) for kind in KINDS[kinds[-1] :] if can_give[kind] > kinds.count(kind)]
    return [EXCHANGE_END, *more]


def _is_exchange(action: Action) -> bool:
    return type(action) is Play and action.education == EducationMode.EXCHANGE


def _exchange(chosen: tuple[Any, ...]) -> Action | None:
    """The exchange of the events chosen once they end; any other action is whole on its own."""
    last = chosen[-1]
    if last == EXCHANGE_END:
        returns = tuple(EVENT_TYPES[part.kind] for part in chosen[:-1])
        return Play(EventType.EDUCATION, education=EducationMode.EXCHANGE, returns=returns)
    if isinstance(last, ExchangeEvent):
        return None
    action: Action = last
    return action


def _write_exchange(chosen: tuple[Any, ...], tensor: Writer) -> None:
    counts = [0.0] * NUM_EVENT_TYPES
    for part in chosen:
        if isinstance(part, ExchangeEvent):
            counts[part.kind] += _PER_COPY[part.kind]
    tensor.put("exchange_chosen", counts)


TENSORS = TensorSpec(
    ACTIONS, FEATURES, encode, legal, Parts(_exchanging, _exchange_options, _exchange, _write_exchange)
)
