"""The safe default action of every decision: legal, deterministic and cheap.

The referee plays it when a bot's reply is late, malformed or illegal, and for every decision of
a forfeited seat.
"""

from __future__ import annotations

from .actions import Action, Advance, CancelPenalty, End
from .state import State


def default_action(state: State) -> Action:
    """Safe and deterministic: the first pile, no step bought, no cancel, else the first option
    (for a turn: end when allowed, else the first card's workers action)."""
    options = state.legal_actions()
    if not options:
        raise ValueError("no decision is pending")
    for safe in (End(), Advance(False), CancelPenalty(False)):
        if safe in options:
            return safe
    return options[0]
