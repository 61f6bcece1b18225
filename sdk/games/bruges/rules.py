"""What the deciding seat may do now (B9-B15, B18, B20, B24), and why a step is not among it.

Read-only functions of a :class:`State`; the state asks them for a decision's options.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    ACTIVATABLE,
    BEGGAR,
    CARD_COLOUR,
    CARD_PERSON,
    CARD_PRICE,
    COACHMAN,
    COOK,
    DYER,
    JAILER,
    NUN,
    PERSONS,
    PRINCE,
    SERVANT,
    SHIPOWNER,
    SMUGGLER,
    STONEMASON,
    THIEF,
    card_name,
)  # fmt: skip
from .phases import (
    ADVANCE_REPUTATION,
    CANCEL_PENALTY,
    DRAW_PILE,
    EXTRA_PLAY,
    FIRE_CHOICE,
    PENALTY_ORDER,
    PLAGUE_DISCARD,
    TAKE_TURN,
)  # fmt: skip

if TYPE_CHECKING:
    from .state import State

#: The worker colour each person costs to activate, -1 for none.
COSTS = tuple(person.cost for person in PERSONS)


def options_for(state: State, kind: str, seat: int) -> list[Action]:
    """The legal options of decision ``kind`` for ``seat``."""
    if kind == DRAW_PILE:
        return [DrawPile(p) for p in (0, 1) if state.pile_size[p]]
    if kind == PENALTY_ORDER:
        return [PenaltyOrder(c) for c in sorted(set(state.circles))]
    if kind == CANCEL_PENALTY:
        return [CancelPenalty(True), CancelPenalty(False)]
    if kind == PLAGUE_DISCARD:
        return [PlagueDiscard(card) for card in state.persons_of(seat)]
    if kind == FIRE_CHOICE:
        return fire_options(state, seat)
    if kind == ADVANCE_REPUTATION:
        return [Advance(True), Advance(False)]
    if kind == TAKE_TURN:
        return turn_options(state, seat)
    return plays(state, seat)


def turn_options(state: State, seat: int) -> list[Action]:
    options: list[Action] = []
    rotated = state.rotated
    for house in state.houses[seat]:
        card = house[1]
        if card >= 0 and CARD_PERSON[card] in ACTIVATABLE and card not in rotated:
            options += activations(state, seat, card)
    hand = state.hands[seat]
    if not state.turn_played and hand:
        options += plays(state, seat)
    if state.turn_played or not hand:
        options.append(End())
    return options


def plays(state: State, seat: int) -> list[Action]:
    """Every (card, action, argument) the seat may play now (B15)."""
    options: list[Action] = []
    workers, guilders, threats = state.workers[seat], state.guilders[seat], state.threats[seat]
    canals, costs, colours = state.canals[seat], state.params.canal_costs, state.params.canal_colours
    dyer, stonemason = state.has(seat, DYER), state.has(seat, STONEMASON)
    empty_house = any(house[1] < 0 for house in state.houses[seat])
    pmask = state.pmask[seat]
    for card in sorted(state.hands[seat]):
        colour = CARD_COLOUR[card]
        options.append(Play(card, WORKERS))
        options.append(Play(card, GUILDERS))
        if threats[colour]:
            options.append(Play(card, THREAT))
        for section in (0, 1):
            k = canals[section]
            if k < 5 and (dyer or colours[section][k] == colour) and guilders >= costs[k]:
                options.append(Play(card, CANAL, section))
        if stonemason:
            options += [Play(card, HOUSE, w) for w in range(5) if workers[w]]
        elif workers[colour]:
            options.append(Play(card, HOUSE, colour))
        if empty_house and guilders >= CARD_PRICE[card] and not pmask >> CARD_PERSON[card] & 1:
            options.append(Play(card, RECRUIT))
    return options


def activations(state: State, seat: int, card: int) -> list[Action]:
    """The ways the seat may activate person ``card`` now (B18, B20)."""
    person = CARD_PERSON[card]
    cost = COSTS[person]
    workers = state.workers[seat]
    if cost >= 0 and not workers[cost]:
        return []
    if person == PRINCE:
        ok = state.rep[seat] < state.params.top_step and not state.advanced[seat]
        return [Activate(card)] if ok else []
    if person == SERVANT:
        return [Activate(card, p) for p in (0, 1) if state.pile_size[p]]
    if person == COACHMAN:
        return [Activate(card)] if state.hands[seat] else []
    if person in (COOK, ACCOUNTANT, BEGGAR):
        return [Activate(card)]
    if person == NUN:
        return [Activate(card, w) for w in range(5) if workers[w]]
    if person == SHIPOWNER:
        costs, guilders = state.params.canal_costs, state.guilders[seat]
        return [
            Activate(card, sec)
            for sec in (0, 1)
            if state.canals[seat][sec] < 5 and guilders >= costs[state.canals[seat][sec]]
        ]
    if person == JAILER:
        return [Activate(card, c) for c in range(5) if state.threats[seat][c]]
    if person == THIEF:
        others = any(state.guilders[t] for t in range(state.n) if t != seat)
        return [Activate(card)] if others else []
    if person == SMUGGLER:
        return [Activate(card, a, b) for a in range(5) if workers[a] for b in range(5) if b != a]
    return []


def fire_options(state: State, seat: int) -> list[Action]:
    options: list[Action] = [
        FireChoice(FIRE_HOUSE, house[1]) for house in state.houses[seat] if house[1] >= 0
    ]
    if any(house[1] < 0 for house in state.houses[seat]):
        options.append(FireChoice(FIRE_EMPTY))
    if state.canals[seat][0]:
        options.append(FireChoice(FIRE_SECTION_A))
    if state.canals[seat][1]:
        options.append(FireChoice(FIRE_SECTION_B))
    return options


def why_illegal(state: State, kind: str, step: Any) -> str:
    """The broken rule in words, for a step that is not among the legal options."""
    seat = state.decider
    if kind in (TAKE_TURN, EXTRA_PLAY) and isinstance(step, Play):
        if step.card not in state.hands[seat]:
            return f"card {step.card} is not in seat {seat}'s hand"
        if kind == TAKE_TURN and state.turn_played:
            return "the turn card is already played (B14)"
        if not WORKERS <= step.action <= RECRUIT:
            return f"action {step.action} is not one of the actions {WORKERS} to {RECRUIT} (B15)"
        return f"{card_name(step.card)} cannot take action {step.action} with argument {step.arg} now (B15)"
    if kind == TAKE_TURN and isinstance(step, Activate):
        return f"card {step.card} cannot be activated so now (B18: in play, unrotated, cost and needs met)"
    if kind == TAKE_TURN and isinstance(step, End):
        return "the turn card must be played first (B14)"
    if kind == EXTRA_PLAY and isinstance(step, End):
        return "an extra play cannot be declined (B24)"
    return f"{type(step).__name__} is not a legal {kind} answer now (seat {seat})"


# --- decisions ------------------------------------------------------------------------------------
