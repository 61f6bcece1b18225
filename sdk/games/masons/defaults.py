"""The safe default action of every decision: legal, deterministic and cheap.

The referee plays it when a bot's reply is late, malformed or illegal, and for every decision
of a forfeited seat: the first legal action, which is the lowest line or colours, no join, the
lowest card, keep, pass.
"""

from __future__ import annotations

from .actions import Action
from .state import State


def default_action(state: State) -> Action:
    """The first of the legal actions (see the module's docstring for what that is per decision)."""
    actions = state.legal_actions()
    if not actions:
        raise ValueError("no decision is pending")
    return actions[0]
