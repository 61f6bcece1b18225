"""Views of an OpenSpiel position: OpenSpiel's own text, and steps by their action names.

A seat's view is its observation (what OpenSpiel shows it); the full view is the state's own
text; a step another seat may not see is told without its name.
"""

from __future__ import annotations

from typing import Any

from .actions import Step
from .observation import observe, public_history
from .state import CHANCE, State


def _seat_text(state: State, seat: int) -> str:
    seen = observe(state, seat)
    return seen.observation_string or seen.information_state_string


def render(state: State, seat: int | None = None) -> str:
    return str(state.spiel) if seat is None else _seat_text(state, seat)


def spectator_view(state: State) -> dict[str, Any]:
    """What every seat may know: the game, and its turn, history and position only where every step
    is public (the turn counts steps, and in a game such as phantom tic-tac-toe how many steps were
    tried is a seat's secret), and the returns at the end."""
    shown: dict[str, Any] = {"game": f"openspiel:{state.loaded.name}", "players": state.loaded.players}
    if public_history(state):
        shown["turn"] = state.turn
        shown["history"] = _history_names(state)
        shown["text"] = str(state.spiel)
    if state.is_terminal():
        shown["returns"] = state.scores()
    return shown


def _history_names(state: State) -> list[str]:
    """Each step's name at the position it was taken from: a name may depend on the position
    (chess names a move by its piece), so past steps cannot be named from the current one."""
    replay = state.loaded.game.new_initial_state()
    names = []
    for taken in state.spiel.full_history():
        names.append(str(replay.action_to_string(taken.player, taken.action)))
        replay.apply_action(taken.action)
    return names


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    return {**spectator_view(state), "text": render(state, seat)}


#: What the rules of any adapted game speak of, for the check that shared code names none of it.
NOUNS = ("pyspiel", "spiel", "information-state string")


def _name(state: State, step: Step) -> str:
    return str(state.spiel.action_to_string(state.current_player, step.id))


def describe(state: State, step: Step, seat: int | None = None) -> str | None:
    """``step`` in words; to a seat that may not see it, only that it happened."""
    mover = state.current_player
    who = "chance" if mover == CHANCE else f"player {mover}"
    if seat is None or seat == mover or (public_history(state) and not state.is_simultaneous()):
        return f"{who}: {_name(state, step)}"
    return f"{who} acts" if mover != CHANCE else "a chance outcome"
