"""The game state: whose turn, what is pending, and how steps change it.

Modelled on OpenSpiel's State: ``current_player`` is the seat deciding now (the
active player, a seat asked to react, a seat giving up cards, the partner of a
Friendly exchange), :data:`CHANCE` (a deck is to be shuffled) or :data:`TERMINAL`.
Shuffles are chance outcomes the caller draws from its own RNG, so a game
re-simulates exactly from its steps. ``apply`` checks every rule first (:mod:`.rules`)
and raises :class:`IllegalActionError` naming it, leaving the state untouched;
``apply_unchecked`` trusts its caller.

Cities are bit masks over the 54 city ids; a hand is a list of copies per
:class:`EventType`. Decks are lists with the top card last.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from itertools import compress
from typing import Any

from ..errors import IllegalActionError
from . import hidden, resolve, rules
from .actions import (
    Deck,
    Draw,
    Exchange,
    GiveCity,
    GiveEvent,
    Pass,
    Play,
    React,
    Shuffle,
    Step,
    step_from_json,
    step_to_json,
)
from .cards import (
    CITY_EMPIRE,
    COVERED_BY,
    EMPIRE_MASKS,
    EVENT_TYPES,
    NUM_EVENT_TYPES,
    WONDER_MASK,
    EventType,
    cities_of,
)
from .observation import Observation, PlayedEvent, observe
from .params import MAX_PLAYERS, MIN_PLAYERS, Params
from .phases import (
    BOTTOM,
    EVENT,
    OVER,
    PHASE_NAMES,
    REACT_STAGE,
    RESOLVE_STAGE,
    SETUP,
    STAGE_NAMES,
    TOP,
    TURN,
    Decision,
    Outcome,
)
from .plays import KINDS, play_counts

CHANCE = -1
TERMINAL = -2
WONDERS_BONUS = 5


class State:
    """A game of Cities for 2-6 players. Create with :func:`new_game`.

    Public: the engine's API (queries, chance, applying steps, secrecy, JSON), the two queries the
    rules share (:meth:`covering`, :meth:`giveable`) and the moves events are made of, which
    :mod:`.resolve` runs. Underscore methods are the state's own (turn flow, applying each step).
    """

    __slots__ = (
        "active",
        "affected",
        "ask",
        "chance",
        "city_deck",
        "curse_now",
        "cursed",
        "cursor",
        "decider",
        "done",
        "ev",
        "ev_play",
        "ev_player",
        "event_deck",
        "face_down",
        "give_events",
        "give_left_a",
        "give_left_b",
        "give_mask_a",
        "give_mask_b",
        "give_seat",
        "give_to",
        "hand_sizes",
        "hands",
        "held",
        "log",
        "lost",
        "n",
        "no_city",
        "no_city_now",
        "options",
        "outcome",
        "params",
        "pending",
        "phase",
        "played",
        "plays_left",
        "progress",
        "quiet",
        "revealed",
        "reveals",
        "round",
        "silenced",
        "silent_now",
        "stage",
        "turn",
        "winners",
        "wonders",
    )

    params: Params
    n: int  # number of seats
    round: int  # current round, from 1 (0 before the first turn)
    turn: int  # turns started so far
    active: int  # seat whose turn it is
    phase: int
    plays_left: int  # events the active seat may still play this turn
    curse_now: bool  # this turn is cursed: one card taken, one event played at most
    silent_now: bool  # this turn is silenced: no event may be played
    no_city_now: bool  # this turn takes no city (Barbarians)
    silenced: list[int]  # per seat: coming turns without playing
    cursed: int  # seats whose next turn is cursed (mask)
    no_city: int  # seats whose next turn takes no city (mask)
    quiet: bool  # both decks were empty when this round started
    played: bool  # an event was played in this round
    held: list[int]  # per seat: cities on the table (mask)
    done: list[int]  # per seat: cities of completed empires (mask)
    wonders: int  # seat holding the wonders bonus, or -1
    hands: list[list[int]]  # per seat: copies of each event kind
    hand_sizes: list[int]
    face_down: list[list[int]]  # per seat: events lost face down, per kind
    city_deck: list[int]  # top card last
    event_deck: list[int]  # top card last
    log: list[PlayedEvent]  # every event played, in order
    chance: int  # the deck to shuffle now (a Deck), or -1
    pending: Decision | None
    decider: int
    # At a play decision: (event kind, number of plays) per playable kind, so that sampling does not
    # count them again; None means "count when needed" (states built or redealt by hand).
    options: list[tuple[int, int]] | None
    # The event being resolved (``ev`` is -1 when none is).
    ev: int
    ev_player: int
    ev_play: Play | None
    affected: int  # seats it affects (mask, C12)
    revealed: int  # seats that revealed protection (mask)
    reveals: list[tuple[int, int]]  # (seat, protection card), in order
    stage: int
    ask: int  # reactions: offset from the player of the next seat to consider
    progress: int  # how far the event's resolution got (see resolve.py)
    cursor: int  # offset from the player of the seat being resolved
    give_seat: int  # seat giving up cards
    give_mask_a: int  # cities it may give in the first group ...
    give_left_a: int  # ... and how many more it must
    give_mask_b: int
    give_left_b: int
    give_to: int  # where given cities go: a seat, or -1 for the city deck
    give_events: int  # events still to give up face down
    lost: bool  # a city went back into the deck during this event
    winners: int  # Games: seats that take cities (mask)
    outcome: list[Outcome]

    # --- building: the one constructor, and putting back an event under way ----------------------------
    def __init__(
        self,
        params: Params,
        players: int,
        *,
        round: int = 0,
        turn: int = 0,
        active: int = 0,
        phase: int = SETUP,
        plays_left: int = 0,
        curse_now: bool = False,
        silent_now: bool = False,
        no_city_now: bool = False,
        silenced: list[int] | None = None,
        cursed: int = 0,
        no_city: int = 0,
        quiet: bool = False,
        played: bool = False,
        held: list[int] | None = None,
        done: list[int] | None = None,
        wonders: int = -1,
        hands: list[list[int]] | None = None,
        hand_sizes: list[int] | None = None,
        face_down: list[list[int]] | None = None,
        city_deck: list[int] | None = None,
        event_deck: list[int] | None = None,
        log: list[PlayedEvent] | None = None,
        chance: int = Deck.CITY,
        pending: Decision | None = None,
        decider: int = -1,
    ) -> None:
        """Every field of the table, each left out as in a fresh game before its two shuffles (C3);
        no event under way (:meth:`restore_event` puts one back). :func:`new_game`,
        :meth:`from_json` and :meth:`from_observation` all build states here."""
        self.params, self.n = params, players
        self.round, self.turn, self.active, self.phase = round, turn, active, phase
        self.plays_left = plays_left
        self.curse_now, self.silent_now, self.no_city_now = curse_now, silent_now, no_city_now
        self.silenced = [0] * players if silenced is None else silenced
        self.cursed, self.no_city = cursed, no_city
        self.quiet, self.played = quiet, played
        self.held = [0] * players if held is None else held
        self.done = [0] * players if done is None else done
        self.wonders = wonders
        self.hands = [[0] * NUM_EVENT_TYPES for _ in range(players)] if hands is None else hands
        self.hand_sizes = [sum(hand) for hand in self.hands] if hand_sizes is None else hand_sizes
        self.face_down = [[0] * NUM_EVENT_TYPES for _ in range(players)] if face_down is None else face_down
        self.city_deck = cities_of(params.city_mask)[::-1] if city_deck is None else city_deck
        self.event_deck = [int(ev) for ev in reversed(params.events)] if event_deck is None else event_deck
        self.log = [] if log is None else log
        self.chance, self.pending, self.decider = chance, pending, decider
        self.options = None
        self._clear_event()

    def restore_event(
        self,
        player: int,
        play: Play,
        *,
        affected: int,
        reveals: list[tuple[int, int]],
        stage: int,
        ask: int,
        progress: int,
        cursor: int,
        give_seat: int,
        give: tuple[int, int, int, int],
        give_to: int,
        give_events: int,
        lost: bool,
        winners: int,
        outcome: list[Outcome],
    ) -> None:
        """Put back an event part-way through its resolution (from a record or an observation);
        ``give`` is (first group, how many more, second group, how many more)."""
        self.ev, self.ev_player, self.ev_play = int(play.event), player, play
        self.affected = affected
        self.reveals = reveals
        self.revealed = 0
        for seat, _ in reveals:
            self.revealed |= 1 << seat
        self.stage, self.ask, self.progress, self.cursor = stage, ask, progress, cursor
        self.give_seat, self.give_to, self.give_events = give_seat, give_to, give_events
        self.give_mask_a, self.give_left_a, self.give_mask_b, self.give_left_b = give
        self.lost, self.winners = lost, winners
        self.outcome = outcome

    @classmethod
    def from_observation(cls, obs: Observation, city_deck: list[int]) -> State:
        """The public part of the state ``obs`` shows: the seat's own hand and face-down events, the
        other hands and piles and the event deck empty (their sizes kept), the city deck in the order
        given, nobody deciding. :func:`determinize` deals the rest."""
        n = obs.players
        hands = [[0] * NUM_EVENT_TYPES for _ in range(n)]
        hands[obs.seat] = list(obs.hand)
        face_down = [[0] * NUM_EVENT_TYPES for _ in range(n)]
        face_down[obs.seat] = list(obs.own_face_down)
        state = cls(
            obs.params,
            n,
            round=obs.round,
            turn=obs.turn,
            active=obs.active,
            phase=PHASE_NAMES.index(obs.phase),
            plays_left=obs.plays_left,
            curse_now=obs.curse_now,
            silent_now=obs.silent_now,
            no_city_now=obs.no_city_now,
            silenced=list(obs.silenced),
            cursed=obs.cursed,
            no_city=obs.no_city,
            quiet=obs.quiet,
            played=obs.played,
            held=list(obs.held),
            done=list(obs.done),
            wonders=obs.wonders,
            hands=hands,
            hand_sizes=list(obs.hand_sizes),
            face_down=face_down,
            city_deck=city_deck,
            event_deck=[],
            log=list(obs.log),
            chance=-1 if obs.chance is None else int(obs.chance),
        )
        res = obs.resolving
        if res is not None:
            stage = STAGE_NAMES.index(res.stage)
            state.restore_event(
                res.seat,
                # The events Education gave back are secret and already in the deck; only their
                # number matters from here on, so placeholders stand in for them.
                replace(res.play, returns=(EventType.EDUCATION,) * res.returned),
                affected=res.affected,
                reveals=[(seat, int(card)) for seat, card in res.revealed],
                stage=stage,
                ask=n if stage == RESOLVE_STAGE else 0,
                progress=res.step,
                cursor=res.cursor,
                give_seat=res.give_seat,
                give=res.give,
                give_to=res.give_to,
                give_events=res.give_events,
                lost=res.lost,
                winners=res.winners,
                outcome=list(res.outcome),
            )
        return state

    # --- queries ---------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The deciding seat, or :data:`CHANCE` (a shuffle is due), or :data:`TERMINAL`."""
        if self.phase == OVER:
            return TERMINAL
        if self.chance >= 0:
            return CHANCE
        return self.decider

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or ``None`` at a chance node or the end."""
        return self.pending

    @property
    def num_players(self) -> int:
        return self.n

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.chance >= 0 and self.phase != OVER

    def scores(self) -> list[int]:
        """Empires completed plus the wonders bonus (final at a terminal state, C7)."""
        return [
            cities.bit_count() // 6 + (WONDERS_BONUS if seat == self.wonders else 0)
            for seat, cities in enumerate(self.done)
        ]

    def ranks(self) -> list[int]:
        """Competition ranks from 1: score, then more cities held (C7); full ties share a rank."""
        keys = [(score, held.bit_count()) for score, held in zip(self.scores(), self.held, strict=True)]
        return [1 + sum(other > key for other in keys) for key in keys]

    # --- chance ----------------------------------------------------------------------------------------
    def sample_chance(self, rng: random.Random) -> Shuffle:
        """A shuffle of the deck due to be shuffled, drawn from the caller's RNG."""
        if not self.is_chance_node():
            raise IllegalActionError(rules.CHANCE_RULE, "no shuffle is due")
        cards = list(self.city_deck if self.chance == Deck.CITY else self.event_deck)
        rng.shuffle(cards)
        if self.chance == Deck.CITY:
            return Shuffle(Deck.CITY, tuple(cards))
        return Shuffle(Deck.EVENT, tuple([EVENT_TYPES[ev] for ev in cards]))

    # --- applying steps --------------------------------------------------------------------------------
    def apply(self, step: Step) -> None:
        """Apply an action or chance outcome after checking every rule (state unchanged on refusal)."""
        rules.check(self, step)
        _APPLIERS[type(step)](self, step)

    def apply_unchecked(self, step: Step) -> None:
        """Apply a step known to be legal (e.g. drawn from :meth:`legal_actions`)."""
        _APPLIERS[type(step)](self, step)

    # The rules' entry points are the state's own methods (bound directly: sampling is the hot path).
    legal_actions = rules.legal_actions
    sample_action = rules.sample_action

    def clone(self) -> State:
        """An independent copy, cheap enough for search."""
        state = State.__new__(State)
        state.active = self.active
        state.affected = self.affected
        state.ask = self.ask
        state.chance = self.chance
        state.curse_now = self.curse_now
        state.cursed = self.cursed
        state.cursor = self.cursor
        state.decider = self.decider
        state.ev = self.ev
        state.ev_play = self.ev_play
        state.ev_player = self.ev_player
        state.give_events = self.give_events
        state.give_left_a = self.give_left_a
        state.give_left_b = self.give_left_b
        state.give_mask_a = self.give_mask_a
        state.give_mask_b = self.give_mask_b
        state.give_seat = self.give_seat
        state.give_to = self.give_to
        state.lost = self.lost
        state.n = self.n
        state.no_city = self.no_city
        state.no_city_now = self.no_city_now
        state.options = self.options
        state.params = self.params
        state.pending = self.pending
        state.phase = self.phase
        state.played = self.played
        state.plays_left = self.plays_left
        state.quiet = self.quiet
        state.revealed = self.revealed
        state.round = self.round
        state.silent_now = self.silent_now
        state.stage = self.stage
        state.progress = self.progress
        state.turn = self.turn
        state.winners = self.winners
        state.wonders = self.wonders
        state.silenced = self.silenced[:]
        state.held = self.held[:]
        state.done = self.done[:]
        state.hands = [hand[:] for hand in self.hands]
        state.hand_sizes = self.hand_sizes[:]
        state.face_down = [pile[:] for pile in self.face_down]
        state.city_deck = self.city_deck[:]
        state.event_deck = self.event_deck[:]
        state.log = self.log[:]
        state.reveals = self.reveals[:]
        state.outcome = self.outcome[:]
        return state

    # --- secrecy ---------------------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know now, and nothing else (C4, C8, C11, C12)."""
        return observe(self, seat)

    def resample_hidden(self, seat: int, rng: random.Random) -> State:
        """A state ``seat`` cannot tell from this one, with everything hidden from it redrawn."""
        return hidden.resample_hidden(self, seat, rng)

    # --- what a seat may do now, as the rules, the observation and the redealing ask it --------------
    def covering(self, seat: int) -> list[EventType]:
        """Protection kinds ``seat`` holds that cover the announced event."""
        hand = self.hands[seat]
        return [card for card in COVERED_BY[self.ev] if hand[card]]

    def giveable(self) -> int:
        """Cities the giving seat may give up now (a mask, C10)."""
        held = self.held[self.give_seat]
        mask = held & self.give_mask_a if self.give_left_a else 0
        if self.give_left_b:
            mask |= held & self.give_mask_b
        return mask

    # --- the moves events are made of (resolve.py runs every event with these) -----------------------
    def note(self, kind: str, seat: int, source: int = -1, value: int = 0) -> None:
        if self.ev >= 0:
            self.outcome.append(Outcome(kind, seat, source, value))

    def gain(self, seat: int, city: int) -> bool:
        """``seat`` gets ``city``; completes empires and the wonders (C5, C6). True if the game ended."""
        bit = 1 << city
        held = self.held[seat] | bit
        empire = CITY_EMPIRE[city]
        completed = False
        if empire >= 0:
            mask = EMPIRE_MASKS[empire]
            if held & mask == mask:
                held ^= mask
                self.done[seat] |= mask
                completed = True
                self.note("complete", seat, -1, empire)
        self.held[seat] = held
        if bit & WONDER_MASK and self.wonders < 0 and (held | self.done[seat]) & WONDER_MASK == WONDER_MASK:
            self.wonders = seat
            self.note("wonders", seat)
        if completed:
            out = 0
            for cities in self.done:
                out |= cities
            if out == self.params.empire_city_mask:
                self._finish()
                return True
        return False

    def lose(self, seat: int, city: int) -> None:
        """``seat`` loses ``city`` into the city deck (shuffled once the event's losses are over, C8)."""
        self.held[seat] &= ~(1 << city)
        self.city_deck.append(city)
        self.lost = True
        self.note("lose", seat, -1, city)

    def move_city(self, source: int, seat: int, city: int) -> bool:
        """City ``city`` passes from ``source`` to ``seat``. True if the game ended."""
        self.held[source] &= ~(1 << city)
        self.note("take", seat, source, city)
        return self.gain(seat, city)

    def draw_cities(self, seat: int, count: int, bottom: bool = False) -> bool:
        """Up to ``count`` cities from the deck (fewer if it runs short). True if the game ended."""
        deck = self.city_deck
        for _ in range(count):
            if not deck:
                return False
            city = deck.pop(0) if bottom else deck.pop()
            self.note("take", seat, BOTTOM if bottom else TOP, city)
            if self.gain(seat, city):
                return True
        return False

    def draw_events(self, seat: int, count: int, bottom: bool = False) -> None:
        deck = self.event_deck
        hand = self.hands[seat]
        taken = min(count, len(deck))
        for _ in range(taken):
            hand[deck.pop(0) if bottom else deck.pop()] += 1
        self.hand_sizes[seat] += taken
        if taken:
            self.note("events", seat, BOTTOM if bottom else TOP, taken)

    def give_up_cities(self) -> bool:
        """Give the cities that are forced; True when the seat is done, else a decision is pending."""
        seat = self.give_seat
        held = self.held[seat]
        forced = 0
        if self.give_left_a:
            group = held & self.give_mask_a
            if group.bit_count() <= self.give_left_a:
                forced |= group
                self.give_left_a = 0
        if self.give_left_b:
            group = held & self.give_mask_b
            if group.bit_count() <= self.give_left_b:
                forced |= group
                self.give_left_b = 0
        for city in cities_of(forced):
            if self._hand_over(seat, city):
                return True
        if self.give_left_a or self.give_left_b:
            self.pending, self.decider = Decision.GIVE_CITY, seat
            return False
        return True

    def give_up_events(self) -> bool:
        """Discard forced events; True when the seat is done, else a decision is pending."""
        seat = self.give_seat
        hand = self.hands[seat]
        while self.give_events:
            size = self.hand_sizes[seat]
            if size <= self.give_events:
                pile = self.face_down[seat]
                for ev in list(compress(KINDS, hand)):
                    pile[ev] += hand[ev]
                    hand[ev] = 0
                self.hand_sizes[seat] = 0
                if size:
                    self.note("discard", seat, -1, size)
                self.give_events = 0
                break
            kinds = list(compress(KINDS, hand))
            if len(kinds) > 1:
                self.pending, self.decider = Decision.GIVE_EVENT, seat
                return False
            self._discard(seat, kinds[0])
            self.note("discard", seat, -1, 1)
            self.give_events -= 1
        return True

    def request_shuffle(self) -> bool:
        """After an event's losses: ask for the city deck to be shuffled if that changes anything."""
        lost, self.lost = self.lost, False
        if lost and len(self.city_deck) > 1:
            self.chance = Deck.CITY
            self.pending = None
            return True
        return False

    def allow_extra_plays(self, count: int) -> None:
        """Victory and Loss of influence allow more plays, except on a cursed turn (C11)."""
        if not self.curse_now:
            self.plays_left += count
            self.note("extra_plays", self.ev_player, -1, count)

    def end_event(self) -> None:
        """The event is fully resolved: log it and carry on with the turn."""
        self._log_event()
        self.phase = TURN
        self._offer_play_or_end()

    # --- inside a move -------------------------------------------------------------------------------
    def _discard(self, seat: int, ev: int) -> None:
        self.hands[seat][ev] -= 1
        self.hand_sizes[seat] -= 1
        self.face_down[seat][ev] += 1

    def _hand_over(self, seat: int, city: int) -> bool:
        """One given city goes where the event sends it. True if the game ended."""
        if self.give_to < 0:
            self.lose(seat, city)
            return False
        return self.move_city(seat, self.give_to, city)

    def _finish(self) -> None:
        """The game is over (C7); an event cut short is logged as far as it went."""
        if self.ev >= 0:
            self._log_event()
        self.phase = OVER
        self.pending = None
        self.chance = -1

    def _log_event(self) -> None:
        play = self.ev_play
        assert play is not None
        returned = len(play.returns)
        self.log.append(
            PlayedEvent(
                self.turn,
                self.ev_player,
                replace(play, returns=()) if returned else play,
                returned,
                tuple((seat, EventType(card)) for seat, card in self.reveals),
                tuple(self.outcome),
            )
        )
        self._clear_event()

    def _clear_event(self) -> None:
        """No event under way: its fields at rest, ready for the next one."""
        self.ev, self.ev_player, self.ev_play = -1, -1, None
        self.affected = self.revealed = self.ask = self.progress = self.cursor = 0
        self.stage = REACT_STAGE
        self.give_seat, self.give_to = -1, -1
        self.give_mask_a = self.give_left_a = self.give_mask_b = self.give_left_b = 0
        self.give_events = self.winners = 0
        self.lost = False
        self.reveals, self.outcome = [], []

    # --- turn flow (C4, C7) -----------------------------------------------------------------------------
    def _offer_play(self) -> bool:
        """Ask the active seat to play if it may play something (C4, C9); else False."""
        if self.plays_left > 0:
            options = play_counts(self, self.active)
            if options:
                self.pending, self.decider, self.options = Decision.PLAY, self.active, options
                return True
        return False

    def _offer_play_or_end(self) -> None:
        if not self._offer_play():
            self._end_turn()

    def _end_turn(self) -> None:
        self.pending = None
        while self._next_turn():
            if self._start_turn() or self._offer_play():
                return

    def _next_turn(self) -> bool:
        """Move to the next seat; False if the game ended with the round (C7)."""
        last = self.active == self.n - 1
        if last and ((self.quiet and not self.played) or self.round >= self.params.max_rounds):
            self._finish()
            return False
        self.active = (self.active + 1) % self.n
        return True

    def _start_turn(self) -> bool:
        """Restrictions and the cards taken at the start of a turn; True if it stopped (decision, end)."""
        seat = self.active
        if seat == 0:
            self.round += 1
            self.quiet = not self.city_deck and not self.event_deck
            self.played = False
        self.turn += 1
        bit = 1 << seat
        self.curse_now = bool(self.cursed & bit)
        self.no_city_now = bool(self.no_city & bit)
        self.cursed &= ~bit
        self.no_city &= ~bit
        silence = self.silenced[seat]
        self.silent_now = silence > 0
        if silence:
            self.silenced[seat] = silence - 1
        self.plays_left = 0 if self.silent_now else 1
        may_city = bool(self.city_deck) and not self.no_city_now
        may_event = bool(self.event_deck)
        if self.curse_now:
            if may_city and may_event:
                self.pending, self.decider = Decision.DRAW, seat
                return True
            if may_city:
                return self.gain(seat, self.city_deck.pop())
            self.draw_events(seat, 1)
            return False
        if may_city and self.gain(seat, self.city_deck.pop()):
            return True
        if may_event:
            self.hands[seat][self.event_deck.pop()] += 1
            self.hand_sizes[seat] += 1
        return False

    def _begin(self) -> None:
        """After the setup shuffles: seat 0 starts round 1."""
        self.phase = TURN
        self.active = 0
        if self._start_turn():
            return
        self._offer_play_or_end()

    # --- events (C11, C12) ------------------------------------------------------------------------------
    def _announce(self, play: Play) -> None:
        seat = self.active
        ev = int(play.event)
        self.hands[seat][ev] -= 1
        self.hand_sizes[seat] -= 1
        self.plays_left = 0 if self.curse_now else self.plays_left - 1
        self.played = True
        self.phase = EVENT
        self.pending = None
        self.ev, self.ev_player, self.ev_play = ev, seat, play
        self.options = None
        self.affected = resolve.affected(self)
        self.winners = resolve.games_winners(self, ev)
        self._ask_reactions()

    def _ask_reactions(self) -> None:
        """Ask the next affected seat holding a covering protection card, in seat order (C12)."""
        n, player, affected = self.n, self.ev_player, self.affected
        covers = COVERED_BY[self.ev]
        while affected and self.ask < n:
            seat = (player + self.ask) % n
            if affected >> seat & 1:
                hand = self.hands[seat]
                for card in covers:
                    if hand[card]:
                        self.pending, self.decider = Decision.REACT, seat
                        return
            self.ask += 1
        self.stage = RESOLVE_STAGE
        self.pending = None
        resolve.run(self)

    # --- applying each kind of step (checked first by rules.check) -------------------------------------
    def _apply_shuffle(self, step: Shuffle) -> None:
        order = list(map(int, reversed(step.order)))
        self.chance = -1
        if step.deck == Deck.CITY:
            self.city_deck = order
        else:
            self.event_deck = order
        if self.phase == SETUP:
            if step.deck == Deck.CITY:
                self.chance = Deck.EVENT
            else:
                self._begin()
        else:
            resolve.run(self)

    def _apply_draw(self, step: Draw) -> None:
        seat = self.active
        self.pending = None
        if step.take == Deck.CITY:
            if self.draw_cities(seat, 1):
                return
        else:
            self.draw_events(seat, 1)
        self._offer_play_or_end()

    def _apply_pass(self, step: Pass) -> None:
        self._end_turn()

    def _apply_play(self, step: Play) -> None:
        self._announce(step)

    def _apply_react(self, step: React) -> None:
        seat = self.decider
        if step.card is not None:
            card = int(step.card)
            self.hands[seat][card] -= 1
            self.hand_sizes[seat] -= 1
            self.revealed |= 1 << seat
            self.reveals.append((seat, card))
            self.note("reveal", seat, -1, card)
        self.ask += 1
        self._ask_reactions()

    def _apply_exchange(self, step: Exchange) -> None:
        self.pending = None
        resolve.answer_exchange(self, step.accept)

    def _apply_give_city(self, step: GiveCity) -> None:
        city = step.city
        if self.give_left_a and self.give_mask_a >> city & 1:
            self.give_left_a -= 1
        else:
            self.give_left_b -= 1
        self.pending = None
        if self._hand_over(self.give_seat, city):
            return
        resolve.run(self)

    def _apply_give_event(self, step: GiveEvent) -> None:
        seat = self.give_seat
        self._discard(seat, int(step.event))
        self.note("discard", seat, -1, 1)
        self.give_events -= 1
        self.pending = None
        resolve.run(self)

    # --- JSON ------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Plain-data form of the whole state, hidden parts included (for records, not for players)."""
        return {
            "players": self.n,
            "params": self.params.to_json(),
            "round": self.round,
            "turn": self.turn,
            "active": self.active,
            "phase": PHASE_NAMES[self.phase],
            "plays_left": self.plays_left,
            "curse_now": self.curse_now,
            "silent_now": self.silent_now,
            "no_city_now": self.no_city_now,
            "silenced": self.silenced[:],
            "cursed": self.cursed,
            "no_city": self.no_city,
            "quiet": self.quiet,
            "played": self.played,
            "held": self.held[:],
            "done": self.done[:],
            "wonders": self.wonders,
            "hands": [_counts_to_json(hand) for hand in self.hands],
            "face_down": [_counts_to_json(pile) for pile in self.face_down],
            "city_deck": self.city_deck[::-1],
            "event_deck": [EventType(ev).name.lower() for ev in reversed(self.event_deck)],
            "log": [record.to_json() for record in self.log],
            "chance": None if self.chance < 0 else Deck(self.chance).name.lower(),
            "pending": None if self.pending is None else str(self.pending),
            "decider": self.decider,
            "event": None if self.ev < 0 else self._event_json(),
        }

    def _event_json(self) -> dict[str, Any]:
        assert self.ev_play is not None
        return {
            "player": self.ev_player,
            "play": step_to_json(self.ev_play),
            "affected": self.affected,
            "reveals": [[seat, EventType(card).name.lower()] for seat, card in self.reveals],
            "stage": self.stage,
            "ask": self.ask,
            "step": self.progress,  # the key records have always used
            "cursor": self.cursor,
            "give": [
                self.give_seat,
                self.give_mask_a,
                self.give_left_a,
                self.give_mask_b,
                self.give_left_b,
                self.give_to,
                self.give_events,
            ],
            "lost": self.lost,
            "winners": self.winners,
            "outcome": [list(item) for item in self.outcome],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """Inverse of :meth:`to_json`."""
        players = int(data["players"])
        state = cls(
            Params.from_json(data["params"]),
            players,
            round=int(data["round"]),
            turn=int(data["turn"]),
            active=int(data["active"]),
            plays_left=int(data["plays_left"]),
            cursed=int(data["cursed"]),
            no_city=int(data["no_city"]),
            wonders=int(data["wonders"]),
            decider=int(data["decider"]),
            phase=PHASE_NAMES.index(data["phase"]),
            curse_now=bool(data["curse_now"]),
            silent_now=bool(data["silent_now"]),
            no_city_now=bool(data["no_city_now"]),
            quiet=bool(data["quiet"]),
            played=bool(data["played"]),
            silenced=[int(v) for v in data["silenced"]],
            held=[int(v) for v in data["held"]],
            done=[int(v) for v in data["done"]],
            hands=[_counts_from_json(hand) for hand in data["hands"]],
            face_down=[_counts_from_json(pile) for pile in data["face_down"]],
            city_deck=[int(c) for c in reversed(data["city_deck"])],
            event_deck=[int(EventType[name.upper()]) for name in reversed(data["event_deck"])],
            log=[PlayedEvent.from_json(record) for record in data["log"]],
            chance=-1 if data["chance"] is None else int(Deck[data["chance"].upper()]),
            pending=None if data["pending"] is None else Decision(data["pending"]),
        )
        event = data["event"]
        if event is not None:
            state._restore_event_json(event)
        return state

    def _restore_event_json(self, event: dict[str, Any]) -> None:
        play = step_from_json(event["play"])
        assert isinstance(play, Play)
        give_seat, mask_a, left_a, mask_b, left_b, give_to, give_events = (int(v) for v in event["give"])
        self.restore_event(
            int(event["player"]),
            play,
            affected=int(event["affected"]),
            reveals=[(int(seat), int(EventType[card.upper()])) for seat, card in event["reveals"]],
            stage=int(event["stage"]),
            ask=int(event["ask"]),
            progress=int(event["step"]),
            cursor=int(event["cursor"]),
            give_seat=give_seat,
            give=(mask_a, left_a, mask_b, left_b),
            give_to=give_to,
            give_events=give_events,
            lost=bool(event["lost"]),
            winners=int(event["winners"]),
            outcome=[Outcome(str(k), int(s), int(src), int(v)) for k, s, src, v in event["outcome"]],
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        where = "chance" if self.is_chance_node() else str(self.pending)
        return f"<State players={self.n} round={self.round} turn={self.turn} active={self.active} {where}>"


#: How each kind of step changes the state.
_APPLIERS: dict[type, Callable[[State, Any], None]] = {
    Shuffle: State._apply_shuffle,
    Draw: State._apply_draw,
    Pass: State._apply_pass,
    Play: State._apply_play,
    React: State._apply_react,
    Exchange: State._apply_exchange,
    GiveCity: State._apply_give_city,
    GiveEvent: State._apply_give_event,
}


def _counts_to_json(counts: list[int]) -> dict[str, int]:
    return {EventType(ev).name.lower(): count for ev, count in enumerate(counts) if count}


def _counts_from_json(data: dict[str, int]) -> list[int]:
    counts = [0] * NUM_EVENT_TYPES
    for name, count in data.items():
        counts[EventType[name.upper()]] = int(count)
    return counts


def new_game(players: int = 4, params: Params | None = None) -> State:
    """A fresh game: both decks are about to be shuffled (two chance nodes), then seat 0 starts."""
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Cities is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players!r}")
    return State(params or Params(), players)


def determinize(observation: Observation, rng: random.Random) -> State:
    """A full state consistent with ``observation``, the cards it hides dealt at random (for search):
    the public part from the observation (its city deck shuffled), the rest by :mod:`.hidden`."""
    city_deck = cities_of(observation.city_deck)
    rng.shuffle(city_deck)
    state = State.from_observation(observation, city_deck)
    hidden.deal_unseen(state, observation, rng)
    return state
