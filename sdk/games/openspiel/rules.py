"""Legality: a step is checked against OpenSpiel's legal actions before ``apply_action`` sees it
(``apply_action`` accepts illegal ids in many games), so an illegal step changes nothing."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from sdk.games.errors import IllegalActionError

from .actions import Action, Outcome, Step

if TYPE_CHECKING:
    from .state import State

#: The rule an illegal step breaks, as a refusal names it.
RULE = "legal actions"


def legal_ids(state: State) -> list[int]:
    """The ids the step due now may take: chance outcomes, or the current player's actions."""
    if state.is_terminal():
        return []
    if state.is_chance_node():
        return [action for action, _ in state.spiel.chance_outcomes()]
    return [int(action) for action in state.spiel.legal_actions(state.current_player)]


def check(state: State, step: Step) -> None:
    """Raise :class:`IllegalActionError` unless ``step`` is legal now."""
    if state.is_terminal():
        raise IllegalActionError(RULE, "the game is over")
    expected = Outcome if state.is_chance_node() else Action
    if not isinstance(step, expected):
        raise IllegalActionError(
            RULE, f"{step!r} is not {'a chance outcome' if expected is Outcome else 'an action'}"
        )
    legal = legal_ids(state)
    if step.id not in legal:
        who = "chance" if state.is_chance_node() else f"player {state.current_player}"
        raise IllegalActionError(RULE, f"action {step.id} is not one of {who}'s legal actions {legal}")


def draw_chance(state: State, rng: random.Random) -> Outcome:
    """A chance outcome drawn from OpenSpiel's explicit distribution with the referee's ``rng``."""
    outcomes = state.spiel.chance_outcomes()
    point = rng.random() * sum(probability for _, probability in outcomes)
    for action, probability in outcomes:
        point -= probability
        if point < 0:
            return Outcome(int(action))
    return Outcome(int(outcomes[-1][0]))
