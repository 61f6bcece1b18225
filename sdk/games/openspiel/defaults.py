"""The safe default action: the first of OpenSpiel's legal actions (legal and deterministic)."""

from __future__ import annotations

from .actions import Step
from .state import State


def default_action(state: State) -> Step:
    actions = state.legal_actions()
    if not actions:
        raise ValueError("no decision is pending")
    return actions[0]
