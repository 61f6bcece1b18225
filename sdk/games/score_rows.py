"""The rows of a final score table: where each seat's points came from, in the rules' order.

A game's scoring module builds them from its own engine state at the end of a game, so the rows add
up to every seat's final score by construction; its view hands them to its drawing module as
``final_scoring`` (docs/replay-format.md), which draws the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """Points each seat got from one source; ``stage`` groups rows (e.g. during play, at the end)."""

    key: str
    label: str
    points: tuple[int, ...]
    stage: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "stage": self.stage, "points": list(self.points)}


def row_totals(rows: Sequence[ScoreRow]) -> list[int]:
    """Each seat's sum of the rows: what its final score must be."""
    return [sum(column) for column in zip(*(row.points for row in rows), strict=True)]


def rows_json(rows: Sequence[ScoreRow]) -> list[dict[str, Any]]:
    return [row.to_json() for row in rows]
