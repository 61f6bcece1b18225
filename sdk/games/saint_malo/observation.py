"""A seat's observation: Saint Malo hides nothing but the dice still to roll, so it is the State."""

from __future__ import annotations

from .state import State

Observation = State


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know of ``state``: all of it."""
    return state
