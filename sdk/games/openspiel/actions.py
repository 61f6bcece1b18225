"""A step: one OpenSpiel action id, a chance outcome's or the deciding seat's.

Who takes it is the state's ``current_player`` (the chance player at a chance node), so the
step itself is the id alone, as a reply names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Action:
    id: int


def step_to_json(step: Action) -> dict[str, Any]:
    return {"action": step.id}


def step_from_json(data: Mapping[str, Any]) -> Action:
    value = data.get("action")
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"a step is {{'action': <id>}}, not {dict(data)!r}")
    return Action(value)
