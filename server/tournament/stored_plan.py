"""The schedule's plan of a stored knockout, from the bracket kept with it: what the standings need
to follow the knockout's tree without the bracket file."""

from __future__ import annotations

import json
from typing import Any

from .bracket import SprtConfig, StageConfig, UntilConfig
from .progression import Plan, StageRules


def knockout_plan(bracket_json: str) -> Plan | None:
    """The plan of the bracket as :meth:`Bracket.model_dump` stored it when the tournament was
    created, when it ends in a knockout; None otherwise (other formats, a ladder's row)."""
    bracket: dict[str, Any] = json.loads(bracket_json)
    stages = bracket.get("stages") or [bracket]
    if not isinstance(stages[-1], dict) or stages[-1].get("format") != "knockout":
        return None
    entrants = bracket["entrants"]
    if bracket.get("stages"):
        stages = tuple(StageConfig.model_validate(stage).rules() for stage in bracket["stages"])
    else:
        until, sprt = bracket.get("until"), bracket.get("sprt")
        stages = (
            StageRules(
                name="",
                format=bracket.get("format", "round-robin"),
                rounds=bracket.get("rounds", 1),
                groups=bracket.get("groups", 1),
                advance=bracket.get("advance"),
                until=None if until is None else UntilConfig.model_validate(until).rule(),
                settle=bracket.get("settle"),
                sprt=None if sprt is None else SprtConfig.model_validate(sprt).rule(),
                reseed=bracket.get("reseed", False),
            ),
        )
    return Plan(
        names=tuple(e["name"] for e in entrants),
        players=bracket["players"],
        seed=bracket.get("seed", 0),
        duplicate=bracket.get("duplicate", False),
        max_tables=bracket.get("max_tables", 500),
        candidates=frozenset(i for i, e in enumerate(entrants) if e.get("candidate")),
        stages=stages,
    )
