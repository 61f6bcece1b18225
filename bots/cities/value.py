"""A learned evaluation: the chance that a seat wins from a Cities position.

The hand-made evaluation (:mod:`bots.cities.evaluation`) counts points of final score, but
a game is won or lost: a five-point lead is as good as a ten-point one, and a tie on score
goes to whoever holds more cities. This evaluation is a logistic model of the probability
of a sole first place (a shared first counts as a share) over features of the position
seen from one seat, fitted on self-play games by :mod:`bots.cities.train_value`; its
weights are in :mod:`bots.cities.value_weights`.

The features, each for the seat and for its strongest rival (per feature, the most any
other seat has), and again each multiplied by how far the game has gone (``late``, the
share of the event deck drawn), so that a weight can change as the game runs out:

- score: empires completed, the wonders bonus;
- the wonders race while the seat can still win it: one indicator per wonder count 1-6;
- empires still open: how many the seat holds 1, 2, 3, 4 or 5 cities of; how many of
  those with 3-5 no other seat holds any of; how many are contested; how many it holds 4+
  of with cities to take by Unification;
- capitals, cities and neutral cities held, events in hand, restrictions on coming turns;
- the contest for each open empire: cities the seat holds and the most any rival holds,
  counted over the open empires (one indicator per pair);
- the seat's own hand (the only one it sees): Unifications, Charismas, protections,
  Attacks, Trades, Influences on wonders, Rebellions, Unrests, Commanders, Angers of the
  gods, festivals, Victories, Educations, Espionages, and Unifications it could play now;
- the clock (event and city decks left), whether it is the seat's turn, open empires.

Only what the seat may see is read, besides the rivals' hand sizes: the rivals' hands are
never looked at, so the same function serves a dealt state and the true one.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

from sdk.games import cities as ci

from .evaluation import open_empires, wonders_open
from .value_weights import WEIGHTS

E = ci.EventType
EMPIRE_MASKS = ci.EMPIRE_MASKS
CAPITAL_MASK = ci.CAPITAL_MASK
WONDER_MASK = ci.WONDER_MASK
NEUTRAL_MASK = ci.NEUTRAL_MASK

#: Kinds of the seat's own hand counted together, one feature each.
HAND_GROUPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(ev) for ev in group)
    for group in (
        (E.UNIFICATION,),
        (E.CHARISMA,),
        (E.BASIC_PROTECTION, E.PROTECTION, E.GREAT_PROTECTION),
        (E.ATTACK,),
        (E.TRADE,),
        (E.INFLUENCE_ON_WONDERS,),
        (E.REBELLION,),
        (E.GREAT_UNREST, E.UNREST),
        tuple(ci.COMMANDERS),
        tuple(ci.ANGERS),
        (E.BIG_FESTIVAL, E.MEDIUM_FESTIVAL, E.SMALL_FESTIVAL),
        (E.VICTORY,),
        (E.EDUCATION,),
        (E.ESPIONAGE,),
    )
)
#: Features per seat (see :func:`seat_features`).
SEAT_FEATURES = 23
#: Holdings of one empire by the seat (0-5) against the most a rival holds (0-5).
CONTEST_BINS = 36
#: Length of the feature vector: seat and rival, each also scaled by ``late``; the hand and
#: its playable Unifications, likewise; the contest bins, likewise; five about the game.
FEATURES = 4 * SEAT_FEATURES + 2 * (len(HAND_GROUPS) + 1) + 2 * CONTEST_BINS + 5
#: The model fitted on two-player games serves two players; the four-player one, three or more.
MODEL_PLAYERS = (2, 4)


def model_for(players: int) -> int:
    """Which fitted model a game of ``players`` seats uses."""
    return 2 if players == 2 else 4


def seat_features(state: ci.State, seat: int, open_masks: Sequence[int]) -> list[float]:
    """The public facts of ``seat``'s position, as listed in the module docstring."""
    held = state.held[seat]
    done = state.done[seat]
    others = 0
    for other, cities in enumerate(state.held):
        if other != seat:
            others |= cities
    f = [0.0] * SEAT_FEATURES
    f[0] = float(done.bit_count() // 6)
    f[1] = 1.0 if state.wonders == seat else 0.0
    if wonders_open(state.wonders, state.done, seat):
        count = ((held | done) & WONDER_MASK).bit_count()
        if count:
            f[1 + count] = 1.0  # 2..7 (all seven would have scored)
    for mask in open_masks:
        mine = (held & mask).bit_count()
        if not mine:
            continue
        f[7 + mine] += 1.0  # 8..12
        if others & mask:
            f[20] += 1.0
            if mine >= 4:
                f[21] += 1.0
        elif mine >= 3:
            f[14 + mine] += 1.0  # 17..19
    f[13] = float((held & CAPITAL_MASK).bit_count())
    f[14] = float(held.bit_count())
    f[15] = float(state.hand_sizes[seat])
    bit = 1 << seat
    f[16] = float(state.silenced[seat] + bool(state.cursed & bit) + bool(state.no_city & bit))
    f[22] = float((held & NEUTRAL_MASK).bit_count())
    return f


def features(state: ci.State, me: int) -> list[float]:
    """The feature vector of the position for ``me`` (length :data:`FEATURES`)."""
    open_masks = [EMPIRE_MASKS[e] for e in open_empires(state.params, state.done)]
    rows = [seat_features(state, seat, open_masks) for seat in range(state.n)]
    mine = rows[me]
    rival = [max(row[i] for seat, row in enumerate(rows) if seat != me) for i in range(SEAT_FEATURES)]
    late = 1.0 - len(state.event_deck) / len(state.params.events)
    hand = state.hands[me]
    own = [float(sum(hand[ev] for ev in group)) for group in HAND_GROUPS]
    own.append(min(float(hand[E.UNIFICATION]), mine[21]))
    contest = [0.0] * CONTEST_BINS
    for mask in open_masks:
        theirs = max((state.held[seat] & mask).bit_count() for seat in range(state.n) if seat != me)
        contest[(state.held[me] & mask).bit_count() * 6 + theirs] += 1.0
    contest[0] = 0.0  # an empire nobody holds says nothing beyond the open count
    cities_total = state.params.city_mask.bit_count()
    clock = [
        late,
        len(state.city_deck) / cities_total,
        1.0 if state.active == me else 0.0,
        float(len(open_masks)),
        1.0,  # the intercept
    ]
    scaled = [value * late for value in (*mine, *rival, *own, *contest)]
    return [*mine, *rival, *own, *contest, *scaled, *clock]


def outcome(state: ci.State, seat: int) -> float:
    """A finished game's result for ``seat``: 1 a sole first, a share of 1 a shared first, else 0."""
    ranks = state.ranks()
    return 1.0 / ranks.count(1) if ranks[seat] == 1 else 0.0


def logit(weights: Sequence[float], x: Sequence[float]) -> float:
    """The model's log-odds for the feature vector ``x``."""
    total: float = sum(map(operator.mul, weights, x))
    return total


def win_probability(state: ci.State, me: int, weights: Sequence[float] | None = None) -> float:
    """The chance that ``me`` wins from ``state``; a finished game's outcome when it is over."""
    if state.is_terminal():
        return outcome(state, me)
    z = logit(WEIGHTS[model_for(state.n)] if weights is None else weights, features(state, me))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
