"""The Cities heuristic policy: one-ply lookahead on a few determinizations.

Every decision is a function of the deciding seat's :class:`~sdk.games.cities.Observation`
alone. Decisions with few answers (play or pass, reveal protection, accept an exchange,
a cursed player's draw) are settled by lookahead: the observation is turned into a few
full states (:func:`~sdk.games.cities.determinize`, hidden cards dealt at random), each
candidate answer is applied to a copy of each, the event it starts or belongs to is
resolved with simple default answers for every seat (reveal the cheapest covering
protection, give up the least valuable city or event, accept an exchange that helps)
and the referee's shuffles drawn at random, and the resulting positions are valued
(:mod:`bots.cities.evaluation`). The answer with the best mean value wins; the same
deals and shuffles serve every answer, so they differ only by what the answer does.
Giving up a city or an event needs no lookahead: the least valuable one goes.

The random numbers come from a seed made of the observation's public facts and the
seat's own hand, so the same observation always gets the same answer.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from functools import partial

from sdk.games import cities as ci
from sdk.games.cities.plays import iter_plays

from .evaluation import Table, Weights, event_values, open_empires, position_value

E = ci.EventType
Action = ci.Action
#: What a position is worth to a seat (higher is better for it).
PositionValue = Callable[[ci.State, int], float]
#: A full state consistent with an observation, its hidden part drawn with the given RNG.
Dealer = Callable[[ci.Observation, random.Random], ci.State]
#: Steps a lookahead resolves at most before it values the position (an event needs a few dozen).
MAX_ROLLOUT_STEPS = 400
#: Lookaheads per decision, beyond which fewer determinizations are used (but never fewer than 2).
ROLLOUT_BUDGET = 64


def _play_key(play: ci.Play | None) -> tuple[object, ...]:
    if play is None:
        return ()
    return (
        int(play.event),
        play.target,
        None if play.side is None else int(play.side),
        None if play.empire is None else int(play.empire),
        None if play.education is None else str(play.education),
        play.take_city,
        play.give_city,
        tuple(int(ev) for ev in play.returns),
    )


def observation_seed(obs: ci.Observation) -> int:
    """A seed made of what the observation shows (as plain numbers, however it was decoded),
    so that equal observations draw equal numbers."""
    pending = obs.pending
    res = obs.resolving
    key = (
        obs.seat,
        obs.players,
        obs.round,
        obs.turn,
        obs.active,
        obs.plays_left,
        tuple(obs.held),
        tuple(obs.done),
        tuple(obs.hand),
        tuple(obs.hand_sizes),
        obs.city_deck,
        obs.event_deck_size,
        tuple(obs.face_down),
        len(obs.log),
        None
        if pending is None
        else (
            str(pending.kind),
            tuple(int(d) for d in pending.draw),
            tuple(int(ev) for ev in pending.playable),
            tuple(int(ev) for ev in pending.protections),
            pending.cities,
            pending.count,
            _play_key(pending.offer),
        ),
        None
        if res is None
        else (
            res.seat,
            _play_key(res.play),
            res.returned,
            res.affected,
            tuple((seat, int(card)) for seat, card in res.revealed),
            res.stage,
            res.step,
            res.cursor,
            len(res.outcome),
        ),
    )
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "big")


def _top(scored: Iterable[tuple[float, int, Action]], keep: int) -> list[Action]:
    """The ``keep`` best-scored actions, best first (ties: the first listed)."""
    ranked = sorted(scored, key=lambda item: (-item[0], item[1]))
    return [action for _, _, action in ranked[:keep]]


class CitiesPolicy:
    """A legal action for any Cities decision, from the deciding seat's observation.

    ``samples`` determinizations are valued per candidate; Attack-like plays keep the
    ``keep_takes`` best cities by a static score, Trade and Friendly exchange the
    ``keep_swaps`` best pairs, before the lookahead sees them. ``value`` values the
    positions the lookahead reaches for the deciding seat: by default the hand-made
    :func:`~bots.cities.evaluation.position_value` under ``weights``. ``deal`` turns an
    observation into the full states looked ahead on (a random deal of the hidden cards; a
    measurement of what hidden information is worth swaps in the truth,
    ``benchmarks/cities_information.py``).
    """

    def __init__(
        self,
        weights: Weights | None = None,
        samples: int = 4,
        keep_takes: int = 5,
        keep_swaps: int = 6,
        value: PositionValue | None = None,
    ):
        self.weights = weights or Weights()
        self.value: PositionValue = value or partial(position_value, weights=self.weights)
        self.samples = samples
        self.keep_takes = keep_takes
        self.keep_swaps = keep_swaps
        self.deal: Dealer = ci.determinize
        self._kinds: dict[ci.Decision, Callable[[ci.Observation], Action]] = {
            ci.Decision.DRAW: self.draw,
            ci.Decision.PLAY: self.play,
            ci.Decision.REACT: self.react,
            ci.Decision.EXCHANGE: self.exchange,
            ci.Decision.GIVE_CITY: self.give_city,
            ci.Decision.GIVE_EVENT: self.give_event,
        }

    def __call__(self, state: ci.State) -> Action:
        """In-process use: decide for the seat deciding in ``state``, from its observation only."""
        return self.decide(state.observation(state.current_player))

    def decide(self, obs: ci.Observation) -> Action:
        """The answer to ``obs.pending``, the decision this seat must make now."""
        if obs.pending is None:
            raise ValueError(f"seat {obs.seat} has no decision to make")
        return self._kinds[obs.pending.kind](obs)

    # --- decisions ------------------------------------------------------------------------------------
    def draw(self, obs: ci.Observation) -> Action:
        assert obs.pending is not None
        return self._best(obs, [ci.Draw(deck) for deck in obs.pending.draw])

    def play(self, obs: ci.Observation) -> Action:
        seed = observation_seed(obs)
        base = self.deal(obs, random.Random(seed))
        return self._best(obs, self.play_candidates(obs, base), seed, base)

    def react(self, obs: ci.Observation) -> Action:
        assert obs.pending is not None
        return self._best(obs, [ci.React(None), *(ci.React(card) for card in obs.pending.protections)])

    def exchange(self, obs: ci.Observation) -> Action:
        return self._best(obs, [ci.Exchange(True), ci.Exchange(False)])

    def give_city(self, obs: ci.Observation) -> Action:
        """The city whose loss costs least (and, when it goes to a rival, helps it least)."""
        assert obs.pending is not None
        res = obs.resolving
        receiver = res.give_to if res is not None and res.give_to != obs.seat else -1
        table = Table(obs.params, obs.held, obs.done, obs.wonders)
        city = _cheapest_city(table, obs.seat, receiver, ci.cities_of(obs.pending.cities), self.weights)
        return ci.GiveCity(city)

    def give_event(self, obs: ci.Observation) -> Action:
        """The event in hand worth least here."""
        open_ = open_empires(obs.params, obs.done)
        values = event_values(obs.held, obs.done, obs.seat, open_, self.weights)
        kinds = [ev for ev, count in enumerate(obs.hand) if count]
        return ci.GiveEvent(E(min(kinds, key=lambda ev: (values[ev], ev))))

    # --- candidates -----------------------------------------------------------------------------------
    def play_candidates(self, obs: ci.Observation, state: ci.State) -> list[Action]:
        """Pass, and the plays worth looking at for every kind ``obs`` may play."""
        assert obs.pending is not None
        return self.state_candidates(state, obs.seat, obs.pending.playable)

    def state_candidates(self, state: ci.State, me: int, playable: Iterable[int]) -> list[Action]:
        """Pass, and the plays of ``playable`` kinds worth looking at for ``me`` in ``state``
        (a deal of what ``me`` knows: only its public part and ``me``'s hand are read)."""
        w = self.weights
        table = Table(state.params, state.held, state.done, state.wonders)
        memo: dict[tuple[int, int, bool], float] = {}

        def delta(seat: int, city: int, gains: bool) -> float:
            """What ``seat`` gains by getting ``city`` (``gains``) or loses by giving it up."""
            key = (seat, city, gains)
            if key not in memo:
                memo[key] = table.gain(seat, city, w)
            return memo[key] if gains else -memo[key]

        def take(p: ci.Play) -> float:
            assert p.take_city is not None and p.target is not None
            return delta(me, p.take_city, True) - delta(p.target, p.take_city, False)

        def swap(p: ci.Play) -> float:
            assert p.give_city is not None and p.target is not None
            return take(p) + delta(me, p.give_city, False) - delta(p.target, p.give_city, True)

        found: list[Action] = [ci.Pass()]
        for ev in playable:
            if ev == E.EDUCATION:
                found.extend(self._education_candidates(state, me))
                continue
            plays = list(iter_plays(state, me, ev))
            if plays and plays[0].give_city is not None:
                found.extend(_top(((swap(p), i, p) for i, p in enumerate(plays)), self.keep_swaps))
            elif plays and plays[0].take_city is not None:
                found.extend(_top(((take(p), i, p) for i, p in enumerate(plays)), self.keep_takes))
            else:
                found.extend(plays)
        return found

    def _education_candidates(self, state: ci.State, me: int) -> list[Action]:
        """Give back the 1-5 least valuable other events; or make each rival with events discard."""
        open_ = open_empires(state.params, state.done)
        values = event_values(state.held, state.done, me, open_, self.weights)
        spare = list(state.hands[me])
        spare[E.EDUCATION] -= 1
        cards = sorted(
            (ev for ev, count in enumerate(spare) for _ in range(count)), key=lambda ev: (values[ev], ev)
        )
        found: list[Action] = [
            ci.Play(
                E.EDUCATION, education=ci.EducationMode.EXCHANGE, returns=tuple(E(ev) for ev in cards[:size])
            )
            for size in range(1, min(5, len(cards)) + 1)
        ]
        found.extend(
            ci.Play(E.EDUCATION, education=ci.EducationMode.DISCARD, target=seat)
            for seat in range(state.n)
            if seat != me and state.hand_sizes[seat]
        )
        return found

    # --- lookahead ------------------------------------------------------------------------------------
    def _best(
        self,
        obs: ci.Observation,
        candidates: list[Action],
        seed: int | None = None,
        base: ci.State | None = None,
    ) -> Action:
        """The candidate with the best mean value after its consequences are resolved."""
        if len(candidates) == 1:
            return candidates[0]
        totals = self.values(obs, candidates, seed, base)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def values(
        self,
        obs: ci.Observation,
        candidates: list[Action],
        seed: int | None = None,
        base: ci.State | None = None,
    ) -> list[float]:
        """Each candidate's total value over the deals, once its consequences are resolved."""
        if seed is None:
            seed = observation_seed(obs)
        me = obs.seat
        totals = [0.0] * len(candidates)
        samples = max(min(2, self.samples), min(self.samples, ROLLOUT_BUDGET // len(candidates)))
        for sample in range(samples):
            deal = base if sample == 0 and base is not None else self.deal(obs, random.Random(seed + sample))
            for index, action in enumerate(candidates):
                state = deal.clone()
                state.apply_unchecked(action)
                self.resolve(state, me, random.Random(seed * 31 + sample))
                totals[index] += self.value(state, me)
        return totals

    def resolve(self, state: ci.State, me: int, rng: random.Random) -> None:
        """Play the event under way to its end with the default answers and random shuffles."""
        for _ in range(MAX_ROLLOUT_STEPS):
            if state.is_terminal():
                return
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            if state.ev < 0:
                return
            state.apply_unchecked(self.default(state, me))

    def default(self, state: ci.State, me: int) -> Action:
        """A quick answer for any seat inside an event being resolved."""
        seat = state.decider
        kind = state.decision
        w = self.weights
        actions = state.legal_actions()
        if kind == ci.Decision.REACT:
            # Rivals protect themselves when they can; the bot does not cancel its own event.
            return actions[0] if seat == me and state.ev_player == me else actions[min(1, len(actions) - 1)]
        if kind == ci.Decision.GIVE_CITY:
            table = Table(state.params, state.held, state.done, state.wonders)
            cities = [a.city for a in actions if isinstance(a, ci.GiveCity)]
            receiver = state.give_to if state.give_to != seat else -1
            return ci.GiveCity(_cheapest_city(table, seat, receiver, cities, w))
        if kind == ci.Decision.GIVE_EVENT:
            open_ = open_empires(state.params, state.done)
            values = event_values(state.held, state.done, seat, open_, w)
            kinds = [a.event for a in actions if isinstance(a, ci.GiveEvent)]
            return ci.GiveEvent(min(kinds, key=lambda ev: (values[ev], ev)))
        if kind == ci.Decision.EXCHANGE:
            play = state.ev_play
            assert play is not None and play.take_city is not None and play.give_city is not None
            table = Table(state.params, state.held, state.done, state.wonders)
            accept = table.gain(seat, play.give_city, w) >= table.loss(seat, play.take_city, w)
            return ci.Exchange(accept)
        return actions[0]


def _cheapest_city(table: Table, seat: int, receiver: int, cities: list[int], weights: Weights) -> int:
    """Of ``cities`` (held by ``seat``), the one whose loss costs least, counting what a rival
    ``receiver`` (-1: none) would gain from it."""

    def cost(city: int) -> tuple[float, int]:
        value = table.loss(seat, city, weights)
        if receiver >= 0:
            value += table.gain(receiver, city, weights)
        return (value, city)

    return min(cities, key=cost)
