"""What a bracket may change: the number of prizes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEFAULT_PRIZES = 5


def normalize(params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters with defaults filled in; ValueError naming a bad key or value."""
    unknown = set(params) - {"prizes"}
    if unknown:
        raise ValueError(f"unknown parameter {sorted(unknown)[0]!r} (known: prizes)")
    prizes = params.get("prizes", DEFAULT_PRIZES)
    if not isinstance(prizes, int) or isinstance(prizes, bool) or not 1 <= prizes <= 20:
        raise ValueError("prizes must be a whole number from 1 to 20")
    return {"prizes": prizes}
