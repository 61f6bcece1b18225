"""The safe default action of every decision: the lowest card bid, the prize kept."""

from __future__ import annotations

from typing import Any

from .state import State


def default_action(state: State) -> Any:
    """The first legal action: the lowest card of the hand, or keeping the prize."""
    actions = state.legal_actions()
    if not actions:
        raise ValueError("no decision is pending")
    return actions[0]
