"""The steps: a chance outcome (``Outcome``) or the deciding seat's action (``Action``), each one
OpenSpiel action id. Who takes an action is the state's ``current_player``, so it is the id
alone, as a reply names it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Action:
    id: int


@dataclass(frozen=True, slots=True)
class Outcome:
    id: int


Step = Action | Outcome


def step_to_json(step: Step) -> dict[str, Any]:
    return {"action" if isinstance(step, Action) else "outcome": step.id}


def step_from_json(data: Mapping[str, Any]) -> Step:
    for key, kind in (("action", Action), ("outcome", Outcome)):
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and len(data) == 1:
            return kind(value)
    raise ValueError(f"a step is {{'action': <id>}} or {{'outcome': <id>}}, not {dict(data)!r}")
