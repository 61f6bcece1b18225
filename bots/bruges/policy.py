"""A greedy policy: every option the observation lists gets a value in points, the best is played.

Values are rough point equivalents: a person is worth its points, its group and what it will do
over the rest of the game; houses, canal spaces (space 3 and statues above all), reputation and
threat markers are weighed by what they score or save. Cards that are good persons are kept for
recruiting and the weakest cards are spent on the other actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sdk.games.bruges.actions import (
    CANAL,
    FIRE_EMPTY,
    FIRE_HOUSE,
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
)
from sdk.games.bruges.cards import CARD_COLOUR, CARD_PERSON, CARD_PRICE, PERSONS
from sdk.games.bruges.params import Params

PerSeat = Sequence[Sequence[int]]


class Occupant(Protocol):
    """A house as the policy reads it: who lives there (-1 nobody)."""

    @property
    def person(self) -> int: ...


class Seen(Protocol):
    """What the policy reads of a position, from the deciding seat's side: an ``Observation`` has
    it all, and so has a view of a full state (:mod:`bots.bruges.rollout`), which lets searches
    play the very same policy in their simulations without building observations."""

    @property
    def seat(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def params(self) -> Params: ...
    @property
    def final_round(self) -> int: ...
    @property
    def options(self) -> Sequence[Action]: ...
    @property
    def pile_sizes(self) -> Sequence[int]: ...
    @property
    def pile_colours(self) -> Sequence[int]: ...
    @property
    def dice(self) -> Sequence[int]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def guilders(self) -> Sequence[int]: ...
    @property
    def reputation(self) -> Sequence[int]: ...
    @property
    def workers(self) -> PerSeat: ...
    @property
    def threats(self) -> PerSeat: ...
    @property
    def canals(self) -> PerSeat: ...
    @property
    def statue_stack(self) -> Sequence[int]: ...
    @property
    def hand(self) -> Sequence[int]: ...
    @property
    def penalty(self) -> int: ...
    @property
    def houses(self) -> Sequence[Sequence[Occupant]]: ...


#: Extra worth of a person beyond its points, by id (what it does over a game).
PERSON_BONUS = {
    "cook": 3.0, "accountant": 3.0, "beggar": 1.5, "prince": 3.0, "mayor": 2.0, "bishop": 2.0,
    "banker": 2.0, "count": 2.5, "painter": 2.5, "alchemist": 2.0, "poet": 2.0, "councilman": 1.5,
    "lawyer": 1.0, "juggler": 1.5, "sculptor": 1.0, "shipowner": 1.0, "knight": 0.5, "priest": 1.0,
    "watchman": 0.5, "physician": 0.5, "princess": 1.0, "nun": 1.0, "jailer": 1.0, "thief": 1.0,
    "smuggler": 0.5, "minstrel": 1.0, "dyer": 0.5, "stonemason": 0.5, "carpenter": 1.0,
    "inventor": 0.5, "servant": 0.5, "coachman": 1.0, "jester": 0.5,
}  # fmt: skip
#: What one activation is worth now, by person id.
ACTIVATION = {
    "cook": 1.6, "accountant": 1.0, "beggar": 0.6, "prince": 2.0, "nun": 0.3, "jailer": 1.4,
    "thief": 0.4, "shipowner": 1.2, "coachman": 0.2, "servant": 0.2, "smuggler": -1.0,
}  # fmt: skip


def _person_value(card: int) -> float:
    person = PERSONS[CARD_PERSON[card]]
    return person.price / 3 + PERSON_BONUS.get(person.id, 0.5)


#: Per card (searches value options thousands of times a decision: a table, not a computation).
PERSON_VALUE = tuple(_person_value(card) for card in range(len(CARD_PERSON)))


def person_value(card: int) -> float:
    """A person's worth in play: its points and what it does."""
    return PERSON_VALUE[card]


class BrugesPolicy:
    """Chooses among ``observation.options``; deterministic (ties go to the earliest option)."""

    def decide(self, obs: Seen) -> Action:
        options = obs.options
        value = self.value
        best, best_value = options[0], value(obs, options[0])
        for option in options[1:]:
            worth = value(obs, option)
            if worth > best_value:  # strictly: a tie keeps the earlier option
                best, best_value = option, worth
        return best

    def ranked(self, obs: Seen) -> list[Action]:
        """Every option, best first (ties in the options' order): ``decide`` answers the first."""
        options = obs.options
        order = sorted(range(len(options)), key=lambda i: (-self.value(obs, options[i]), i))
        return [options[i] for i in order]

    def value(self, obs: Seen, option: Action) -> float:
        if type(option) is Play:  # the bulk of every turn's options: matched first
            return self._play(obs, option.card, option.action, option.arg)
        me = obs.seat
        match option:
            case DrawPile(pile):
                return 0.5 * obs.pile_sizes[pile] / 100 + (
                    1 if obs.pile_colours[pile] in self._wanted(obs) else 0
                )
            case PenaltyOrder(colour):
                return -colour
            case CancelPenalty(cancel):
                return self._loss(obs, obs.penalty) - 1.0 if cancel else 0.0
            case PlagueDiscard(card):
                return -person_value(card)
            case FireChoice(option_kind, card):
                if option_kind == FIRE_HOUSE:
                    return -person_value(card) - 1.5
                if option_kind == FIRE_EMPTY:
                    return -1.5
                built = obs.canals[me][option_kind - 2]
                return -1.0 - (3 if built == 3 else 0)
            case Advance(advance):
                if not advance:
                    return 0.0
                price = sum(d for d in obs.dice if d <= 2)
                return 1.6 + (0.3 * obs.reputation[me]) - 0.35 * price
            case Activate(card, a, _):
                return self._activation(obs, card, a)
            case Play(card, action, arg):
                return self._play(obs, card, action, arg)
            case End():
                return 0.0
        return 0.0

    def _wanted(self, obs: Seen) -> set[int]:
        colours = obs.params.canal_colours
        return {colours[s][k] for s, k in enumerate(obs.canals[obs.seat]) if k < 5}

    def _loss(self, obs: Seen, colour: int) -> float:
        me = obs.seat
        if colour == 0:
            return 0.6 * sum(obs.workers[me])
        if colour == 4:
            return 0.3 * obs.guilders[me]
        if colour == 3:
            return min(3, obs.scores[me])
        return 3.0

    def _activation(self, obs: Seen, card: int, arg: int) -> float:
        person = PERSONS[CARD_PERSON[card]]
        value = ACTIVATION.get(person.id, 0.0)
        if person.cost >= 0:
            value -= 0.4
        if person.id == "nun":
            value += 0.7 - 0.5 * (obs.workers[obs.seat][arg] == 1)
        if person.id == "shipowner":
            value += 3 if obs.canals[obs.seat][arg] == 2 else 0
        return value

    def _play(self, obs: Seen, card: int, action: int, arg: int) -> float:
        me = obs.seat
        colour = CARD_COLOUR[card]
        keep = PERSON_VALUE[card] * 0.25  # what spending the card on anything but recruiting gives up
        late = obs.final_round >= 0
        if action == RECRUIT:
            value = person_value(card) + 1.0 - 0.12 * CARD_PRICE[card]
            if PERSONS[CARD_PERSON[card]].id == "jester":
                value += 0.5 * (obs.players - 1)
            return value + 1.0
        if action == HOUSE:
            budget = obs.guilders[me] + 4
            recruit_next = all(h.person >= 0 for h in obs.houses[me]) and any(
                c != card and CARD_PRICE[c] <= budget for c in obs.hand
            )  # no house is empty and the hand holds another affordable person
            value = 1.0 + (1.6 if recruit_next else 0.2) - (0.8 if late else 0)
            return value - keep - 0.3 * (obs.workers[me][arg] == 1 and sum(obs.workers[me]) < 3)
        if action == CANAL:
            built = obs.canals[me][arg]
            cost = obs.params.canal_costs[built]
            value = 1.3 + (3 if built == 2 else 0) - 0.25 * cost
            if built == 4 and obs.statue_stack:
                value += obs.statue_stack[0]
            return value - keep
        if action == THREAT:
            return 1.0 + (1.5 if obs.threats[me][colour] == 2 else 0.3) - keep
        if action == WORKERS:
            lacking = list(obs.workers[me]).count(0)
            return 0.6 + 0.15 * lacking - keep
        if action == GUILDERS:
            die = obs.dice[colour] if obs.dice else 3
            need = 9 - obs.guilders[me]
            return 0.2 * die + (0.2 * min(die, need) if need > 0 else 0) - keep
        return 0.0
