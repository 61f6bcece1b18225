"""The safe default action of every Cities decision, taken for a seat that did not answer in time."""

from __future__ import annotations

from .actions import Action, Deck, Draw, Exchange, Pass, React
from .phases import Decision
from .state import State


def default_action(state: State) -> Action:
    """Safe and deterministic: pass, reveal nothing, decline, take the top city, the lowest city or event."""
    decision = state.pending
    if decision is None or state.is_chance_node() or state.is_terminal():
        raise ValueError("no decision is pending")
    if decision == Decision.DRAW:
        return Draw(Deck.CITY)
    if decision == Decision.PLAY:
        return Pass()
    if decision == Decision.REACT:
        return React(None)
    if decision == Decision.EXCHANGE:
        return Exchange(False)
    return state.legal_actions()[0]  # GiveCity / GiveEvent: the lowest city or event kind
