"""What one seat may know: the public table, its own hand, and its own pending decision.

An :class:`Observation` is built by :func:`observe` (``State.observation(seat)``) and is the only thing
about a game a seat ever receives. It holds no other hand, no deck order, nothing
about which events were discarded face down by others, and nothing about who is
being asked to react (C4, C8, C11, C12).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .actions import Deck, Play, step_from_json, step_to_json
from .cards import NUM_EVENT_TYPES, Empire, EventType
from .params import Params
from .phases import EVENT, OVER, PHASE_NAMES, REACT_STAGE, STAGE_NAMES, Decision, Outcome
from .plays import play_counts

if TYPE_CHECKING:
    from .state import State


def _event_name(ev: int) -> str:
    return EventType(ev).name.lower()


def _event(name: str) -> EventType:
    return EventType[name.upper()]


def _play_json(play: Play) -> dict[str, Any]:
    return step_to_json(play)


def _play(data: dict[str, Any]) -> Play:
    play = step_from_json(data)
    if not isinstance(play, Play):
        raise ValueError(f"expected a play, got {data!r}")
    return play


def _reveals_json(reveals: tuple[tuple[int, EventType], ...]) -> list[list[Any]]:
    return [[seat, _event_name(card)] for seat, card in reveals]


def _reveals(data: list[list[Any]]) -> tuple[tuple[int, EventType], ...]:
    return tuple((int(seat), _event(card)) for seat, card in data)


def _outcome(data: list[list[Any]]) -> tuple[Outcome, ...]:
    return tuple(Outcome(str(kind), int(seat), int(source), int(value)) for kind, seat, source, value in data)


def _counts_json(counts: tuple[int, ...]) -> dict[str, int]:
    return {_event_name(ev): count for ev, count in enumerate(counts) if count}


def _counts(data: dict[str, int]) -> tuple[int, ...]:
    counts = [0] * NUM_EVENT_TYPES
    for name, count in data.items():
        counts[_event(name)] = int(count)
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class PlayedEvent:
    """An event that was played: who, when, the choices announced, reactions and what happened.

    ``play`` never lists the events given back by Education (only their number,
    ``returned``); ``revealed`` holds ``(seat, protection card)`` pairs in order.
    """

    turn: int
    seat: int
    play: Play
    returned: int
    revealed: tuple[tuple[int, EventType], ...]
    outcome: tuple[Outcome, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "seat": self.seat,
            "play": _play_json(self.play),
            "returned": self.returned,
            "revealed": _reveals_json(self.revealed),
            "outcome": [list(item) for item in self.outcome],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayedEvent:
        return cls(
            int(data["turn"]),
            int(data["seat"]),
            _play(data["play"]),
            int(data["returned"]),
            _reveals(data["revealed"]),
            _outcome(data["outcome"]),
        )


@dataclass(frozen=True, slots=True)
class Resolving:
    """The announced event still being resolved, and where its resolution stands (all public).

    ``stage`` is ``"react"`` while protection may still be revealed, then ``"resolve"``.
    ``step`` and ``cursor`` (a seat counted from the player) are the engine's progress;
    ``give_seat`` is giving up cards: ``give`` = (cities it may give in a first group, how
    many more, a second group, how many more), to ``give_to`` (a seat, or -1 for the deck),
    and ``give_events`` events still to discard. ``winners``: the seats a Games rewards.
    """

    seat: int
    play: Play
    returned: int
    affected: int
    revealed: tuple[tuple[int, EventType], ...]
    stage: str
    step: int
    cursor: int
    give_seat: int
    give: tuple[int, int, int, int]
    give_to: int
    give_events: int
    lost: bool
    winners: int
    outcome: tuple[Outcome, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "play": _play_json(self.play),
            "returned": self.returned,
            "affected": self.affected,
            "revealed": _reveals_json(self.revealed),
            "stage": self.stage,
            "step": self.step,
            "cursor": self.cursor,
            "give_seat": self.give_seat,
            "give": list(self.give),
            "give_to": self.give_to,
            "give_events": self.give_events,
            "lost": self.lost,
            "winners": self.winners,
            "outcome": [list(item) for item in self.outcome],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Resolving:
        give = tuple(int(v) for v in data["give"])
        if len(give) != 4:
            raise ValueError("give needs four numbers")
        return cls(
            int(data["seat"]),
            _play(data["play"]),
            int(data["returned"]),
            int(data["affected"]),
            _reveals(data["revealed"]),
            str(data["stage"]),
            int(data["step"]),
            int(data["cursor"]),
            int(data["give_seat"]),
            (give[0], give[1], give[2], give[3]),
            int(data["give_to"]),
            int(data["give_events"]),
            bool(data["lost"]),
            int(data["winners"]),
            _outcome(data["outcome"]),
        )


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision this seat must make now, with what it needs to make it.

    - DRAW: ``draw`` lists what may be taken.
    - PLAY: ``playable`` lists the event kinds in hand that can be played now.
    - REACT: ``protections`` lists the protection kinds this seat may reveal.
    - GIVE_CITY: ``cities`` is the mask of cities it may give now, ``count`` how many it
      still has to give in this event.
    - GIVE_EVENT: ``count`` is how many events it still has to discard (any of its hand).
    - EXCHANGE: ``offer`` is the Friendly exchange proposed to it.
    """

    kind: Decision
    draw: tuple[Deck, ...] = ()
    playable: tuple[EventType, ...] = ()
    protections: tuple[EventType, ...] = ()
    cities: int = 0
    count: int = 0
    offer: Play | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "draw": [Deck(d).name.lower() for d in self.draw],
            "playable": [_event_name(ev) for ev in self.playable],
            "protections": [_event_name(ev) for ev in self.protections],
            "cities": self.cities,
            "count": self.count,
            "offer": None if self.offer is None else _play_json(self.offer),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pending:
        return cls(
            Decision(data["kind"]),
            tuple(Deck[str(d).upper()] for d in data["draw"]),
            tuple(_event(ev) for ev in data["playable"]),
            tuple(_event(ev) for ev in data["protections"]),
            int(data["cities"]),
            int(data["count"]),
            None if data["offer"] is None else _play(data["offer"]),
        )


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything ``seat`` may know. Cities are masks; hands are copies per :class:`EventType`.

    Public: the turn (``round``, ``turn``, ``active``, ``plays_left``; ``phase`` is
    ``setup``, ``turn``, ``event`` or ``over``; ``chance``: the deck being shuffled),
    restrictions (this turn's ``curse_now``/``silent_now``/``no_city_now``; per seat
    ``silenced`` turns left, and the ``cursed`` and ``no_city`` masks for next turns),
    ``quiet``/``played`` (C7's end test for this round), cities ``held`` and in completed
    empires (``done``), the ``wonders`` bonus holder (-1: none), ``scores``, ``hand_sizes``,
    the cities in the ``city_deck`` (a mask: its order is secret), ``event_deck_size``,
    events lost face down per seat (``face_down``), every event played (``log``), the
    event being resolved (``resolving``), and ``waiting``/``waiting_seat``: the decision
    due when who must make it is public (never during protection reactions).

    Private to ``seat``: its ``hand``, the events it lost face down (``own_face_down``),
    and ``pending``, its decision when it is the one deciding.
    """

    seat: int
    players: int
    params: Params
    phase: str
    chance: Deck | None
    round: int
    turn: int
    active: int
    plays_left: int
    curse_now: bool
    silent_now: bool
    no_city_now: bool
    silenced: tuple[int, ...]
    cursed: int
    no_city: int
    quiet: bool
    played: bool
    held: tuple[int, ...]
    done: tuple[int, ...]
    wonders: int
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    city_deck: int
    event_deck_size: int
    face_down: tuple[int, ...]
    log: tuple[PlayedEvent, ...]
    resolving: Resolving | None
    waiting: Decision | None
    waiting_seat: int
    hand: tuple[int, ...]
    own_face_down: tuple[int, ...]
    pending: Pending | None

    def completed(self, seat: int) -> list[Empire]:
        """The empires ``seat`` completed."""
        return [e for e in Empire if self.done[seat] >> (6 * e) & 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "params": self.params.to_json(),
            "phase": self.phase,
            "chance": None if self.chance is None else Deck(self.chance).name.lower(),
            "round": self.round,
            "turn": self.turn,
            "active": self.active,
            "plays_left": self.plays_left,
            "curse_now": self.curse_now,
            "silent_now": self.silent_now,
            "no_city_now": self.no_city_now,
            "silenced": list(self.silenced),
            "cursed": self.cursed,
            "no_city": self.no_city,
            "quiet": self.quiet,
            "played": self.played,
            "held": list(self.held),
            "done": list(self.done),
            "wonders": self.wonders,
            "scores": list(self.scores),
            "hand_sizes": list(self.hand_sizes),
            "city_deck": self.city_deck,
            "event_deck_size": self.event_deck_size,
            "face_down": list(self.face_down),
            "log": [record.to_json() for record in self.log],
            "resolving": None if self.resolving is None else self.resolving.to_json(),
            "waiting": None if self.waiting is None else str(self.waiting),
            "waiting_seat": self.waiting_seat,
            "hand": _counts_json(self.hand),
            "own_face_down": _counts_json(self.own_face_down),
            "pending": None if self.pending is None else self.pending.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Observation:
        """Inverse of :meth:`to_json`; raises ``ValueError`` on malformed data."""
        try:

            def ints(key: str) -> tuple[int, ...]:
                return tuple(int(v) for v in data[key])

            chance = data["chance"]
            resolving = data["resolving"]
            waiting = data["waiting"]
            pending = data["pending"]
            return cls(
                seat=int(data["seat"]),
                players=int(data["players"]),
                params=Params.from_json(data["params"]),
                phase=str(data["phase"]),
                chance=None if chance is None else Deck[str(chance).upper()],
                round=int(data["round"]),
                turn=int(data["turn"]),
                active=int(data["active"]),
                plays_left=int(data["plays_left"]),
                curse_now=bool(data["curse_now"]),
                silent_now=bool(data["silent_now"]),
                no_city_now=bool(data["no_city_now"]),
                silenced=ints("silenced"),
                cursed=int(data["cursed"]),
                no_city=int(data["no_city"]),
                quiet=bool(data["quiet"]),
                played=bool(data["played"]),
                held=ints("held"),
                done=ints("done"),
                wonders=int(data["wonders"]),
                scores=ints("scores"),
                hand_sizes=ints("hand_sizes"),
                city_deck=int(data["city_deck"]),
                event_deck_size=int(data["event_deck_size"]),
                face_down=ints("face_down"),
                log=tuple(PlayedEvent.from_json(record) for record in data["log"]),
                resolving=None if resolving is None else Resolving.from_json(resolving),
                waiting=None if waiting is None else Decision(waiting),
                waiting_seat=int(data["waiting_seat"]),
                hand=_counts(data["hand"]),
                own_face_down=_counts(data["own_face_down"]),
                pending=None if pending is None else Pending.from_json(pending),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"malformed Cities observation: {exc}") from exc


# --- building one seat's observation from the full state ---------------------------------------------


def _resolving(state: State) -> Resolving | None:
    play = state.ev_play
    if state.ev < 0 or play is None:
        return None
    return Resolving(
        seat=state.ev_player,
        play=replace(play, returns=()) if play.returns else play,
        returned=len(play.returns),
        affected=state.affected,
        revealed=tuple((seat, EventType(card)) for seat, card in state.reveals),
        stage=STAGE_NAMES[state.stage],
        step=state.progress,
        cursor=state.cursor,
        give_seat=state.give_seat,
        give=(state.give_mask_a, state.give_left_a, state.give_mask_b, state.give_left_b),
        give_to=state.give_to,
        give_events=state.give_events,
        lost=state.lost,
        winners=state.winners,
        outcome=tuple(state.outcome),
    )


def _pending(state: State, seat: int) -> Pending | None:
    kind = state.pending
    if kind is None or state.current_player != seat:
        return None
    if kind == Decision.DRAW:
        return Pending(kind, draw=(Deck.CITY, Deck.EVENT))
    if kind == Decision.PLAY:
        return Pending(kind, playable=tuple(EventType(ev) for ev, _ in play_counts(state, seat)))
    if kind == Decision.REACT:
        return Pending(kind, protections=tuple(state.covering(seat)))
    if kind == Decision.GIVE_CITY:
        return Pending(kind, cities=state.giveable(), count=state.give_left_a + state.give_left_b)
    if kind == Decision.GIVE_EVENT:
        return Pending(kind, count=state.give_events)
    return Pending(kind, offer=state.ev_play)


def _waiting(state: State) -> tuple[Decision | None, int]:
    """The decision due and its seat, when public: never while reactions are being asked."""
    if state.phase == OVER or state.chance >= 0 or state.pending is None:
        return None, -1
    if state.phase == EVENT and state.stage == REACT_STAGE:
        return None, -1
    return state.pending, state.decider


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know now (see :class:`Observation`)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat!r} in a {state.n}-player game")
    city_deck = 0
    for city in state.city_deck:
        city_deck |= 1 << city
    waiting, waiting_seat = _waiting(state)
    return Observation(
        seat=seat,
        players=state.n,
        params=state.params,
        phase=PHASE_NAMES[state.phase],
        chance=Deck(state.chance) if state.chance >= 0 and state.phase != OVER else None,
        round=state.round,
        turn=state.turn,
        active=state.active,
        plays_left=state.plays_left,
        curse_now=state.curse_now,
        silent_now=state.silent_now,
        no_city_now=state.no_city_now,
        silenced=tuple(state.silenced),
        cursed=state.cursed,
        no_city=state.no_city,
        quiet=state.quiet,
        played=state.played,
        held=tuple(state.held),
        done=tuple(state.done),
        wonders=state.wonders,
        scores=tuple(state.scores()),
        hand_sizes=tuple(state.hand_sizes),
        city_deck=city_deck,
        event_deck_size=len(state.event_deck),
        face_down=tuple(sum(pile) for pile in state.face_down),
        log=tuple(state.log),
        resolving=_resolving(state),
        waiting=waiting,
        waiting_seat=waiting_seat,
        hand=tuple(state.hands[seat]),
        own_face_down=tuple(state.face_down[seat]),
        pending=_pending(state, seat),
    )
