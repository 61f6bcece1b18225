"""Which actions are legal now, and why a step is refused (each refusal names its ruling)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING

from sdk.games.errors import IllegalActionError

from .actions import Action, Connect, FinalScore, Houses, Roll, Score, Shuffle, Step, Swap, Towers, Wall
from .board import LINE_COUNT, spaces_of
from .cards import FULL_DECK, KINDS, WITHOUT_CITY
from .phases import CONNECT, DECISION_PHASES, FINAL, HOUSES, OVER, ROLL, SCORE, SETUP, SWAP, TOWERS, WALL

if TYPE_CHECKING:
    from .state import State

_PHASE_OF: dict[type, int] = {
    Wall: WALL, Towers: TOWERS, Houses: HOUSES, Connect: CONNECT, Score: SCORE, Swap: SWAP, FinalScore: FINAL,
}  # fmt: skip
_RULE_OF = {WALL: "M3.1 wall", TOWERS: "M3.3 towers", HOUSES: "M3.4 houses", CONNECT: "M5.1 connect",
            SCORE: "M6 scoring round", SWAP: "M7 swap", FINAL: "M4 final scoring"}  # fmt: skip


def _refuse(rule: str, message: str) -> IllegalActionError:
    return IllegalActionError(rule, message)


def _check_chance(state: State, step: Shuffle | Roll) -> None:
    if not state.is_chance_node():
        raise _refuse("M10 chance", f"no chance outcome is due, {state.decision} is awaited")
    if isinstance(step, Roll):
        if state.draws or state.phase != ROLL:
            raise _refuse("M3.2 roll", "the dice are not due now")
        if step.tower not in range(3) or any(h not in range(6) for h in step.houses):
            raise _refuse("M2 dice", f"{step} shows a face the dice do not have")
        return
    if state.phase != SETUP and not state.draws:
        raise _refuse("M6 draw pile", "no shuffle is due now")
    if state.phase == SETUP:
        expected = sorted(FULL_DECK)
    else:
        expected = [k for k, count in enumerate(state.discards) for _ in range(count)]
    if sorted(step.order) != expected:
        raise _refuse("M6 draw pile", "a shuffle must hold exactly the cards being shuffled")


def _in_hand(hand: list[int], cards: tuple[int, ...], rule: str) -> None:
    if any(not isinstance(c, int) or not 0 <= c < KINDS for c in cards):
        raise _refuse(rule, f"{cards} names an unknown card kind")
    if list(cards) != sorted(cards):
        raise _refuse(rule, "cards are listed in ascending order")
    for card in set(cards):
        if cards.count(card) > hand[card]:
            raise _refuse(rule, f"card {card} is not in hand {cards.count(card)} times")


def check(state: State, step: Step) -> None:
    """Raise :class:`IllegalActionError` naming the broken rule unless ``step`` is legal now."""
    if state.phase == OVER:
        raise _refuse("M4 game end", "the game is over")
    if isinstance(step, Shuffle | Roll):
        _check_chance(state, step)
        return
    phase = _PHASE_OF.get(type(step))
    if phase is None:
        raise _refuse("M10 decisions", f"{step!r} is not a Masons action")
    if state.is_chance_node():
        raise _refuse("M10 chance", "a chance outcome is due, not a decision")
    if phase != state.phase:
        raise _refuse(
            _RULE_OF[phase],
            f"a {DECISION_PHASES[state.phase]} decision is awaited, not {DECISION_PHASES[phase]}",
        )
    rule = _RULE_OF[phase]
    match step:
        case Wall(line):
            if not (isinstance(line, int) and 0 <= line < LINE_COUNT and state.open_lines() >> line & 1):
                raise _refuse(rule, f"line {line} is not an empty line outside every completed city")
        case Towers(colours):
            if colours not in state.tower_choices():
                raise _refuse(rule, f"towers {colours} do not follow the die and the supply")
        case Houses(colours):
            if colours not in state.house_choices():
                raise _refuse(rule, f"houses {colours} do not follow the dice and the supply")
        case Connect(city):
            if city is not None and city not in state.neighbours():
                raise _refuse(rule, f"city {city} shares no wall with the new city")
        case Score(cards, discard):
            hand = state.hands[state.queue[0]]
            if discard and len(cards) != 1:
                raise _refuse(rule, "a discard without scoring is exactly one card")
            if not 1 <= len(cards) <= 2:
                raise _refuse(rule, "play one or two cards")
            _in_hand(hand, cards, rule)
        case Swap(cards):
            _in_hand(state.hands[state.queue[0]], cards, rule)
        case FinalScore(city, cards):
            _check_final(state, city, cards, rule)


def _check_final(state: State, city: int | None, cards: tuple[int, ...], rule: str) -> None:
    if not cards:
        if city is not None:
            raise _refuse(rule, "a pass names no city")
        return
    if len(cards) > 2:
        raise _refuse(rule, "play one or two cards, or pass")
    _in_hand(state.hands[state.queue[0]], cards, rule)
    if state.cities:
        if city is None or not 0 <= city < len(state.cities):
            raise _refuse(rule, "cards played in the final scoring name one completed city")
    elif city is not None or any(card not in WITHOUT_CITY for card in cards):
        raise _refuse(rule, "without a completed city only land cards and the cities card may be played")


def plays(hand: Sequence[int], allowed: range | tuple[int, ...] = range(KINDS)) -> list[tuple[int, ...]]:
    """Every choice of one or two cards from ``hand`` among kinds ``allowed``, ascending."""
    kinds = [k for k in allowed if hand[k]]
    found: list[tuple[int, ...]] = [(k,) for k in kinds]
    for n, a in enumerate(kinds):
        found += [(a, b) for b in kinds[n:] if a != b or hand[a] >= 2]
    return found


def swaps(hand: Sequence[int]) -> list[Action]:
    """Every swap of a sub-multiset of ``hand`` (keeping it whole first)."""
    kinds = [k for k in range(KINDS) if hand[k]]
    counts = product(*(range(hand[k] + 1) for k in kinds))
    return [Swap(tuple(k for k, n in zip(kinds, count, strict=True) for _ in range(n))) for count in counts]


def legal_actions(state: State) -> list[Action]:
    """Every legal action of the deciding seat, in a fixed order (empty at chance or the end)."""
    if state.phase == OVER or state.is_chance_node():
        return []
    phase = state.phase
    if phase == WALL:
        return [Wall(line) for line in spaces_of(state.open_lines())]
    if phase == TOWERS:
        return [Towers(c) for c in state.tower_choices()]  # type: ignore[arg-type]
    if phase == HOUSES:
        return [Houses(c) for c in state.house_choices()]
    if phase == CONNECT:
        return [Connect(None), *(Connect(c) for c in state.neighbours())]
    return card_actions(phase, state.hands[state.queue[0]], len(state.cities))


def card_actions(phase: int, hand: Sequence[int], cities: int) -> list[Action]:
    """The legal actions of a scoring-round, swap or final-scoring decision (``phase``), from the deciding
    seat's ``hand`` and the number of completed ``cities``: all a seat knows, so its bot can list them."""
    if phase == SCORE:
        return [*(Score(p) for p in plays(hand)), *(Score((k,), True) for k in range(KINDS) if hand[k])]
    if phase == SWAP:
        return swaps(hand)
    actions: list[Action] = [FinalScore(None, ())]
    if cities:
        choices = plays(hand)
        actions += [FinalScore(city, p) for city in range(cities) for p in choices]
    else:
        actions += [FinalScore(None, p) for p in plays(hand, WITHOUT_CITY)]
    return actions


def sample_action(state: State, rng: random.Random) -> Action:
    """A legal action drawn uniformly from :func:`legal_actions`; a swap keeps each card with odds 1/2."""
    if state.phase == OVER or state.is_chance_node():
        raise _refuse("M10 decisions", "no decision is pending")
    if state.phase == WALL:  # rejection sampling: uniform over the open lines, no list built
        open_lines = state.open_lines()
        while True:
            line = rng.randrange(LINE_COUNT)
            if open_lines >> line & 1:
                return Wall(line)
    if state.phase == SWAP:
        hand = state.hands[state.queue[0]]
        cards = [k for k in range(KINDS) for _ in range(hand[k]) if rng.random() < 0.5]
        return Swap(tuple(cards))
    return rng.choice(legal_actions(state))
