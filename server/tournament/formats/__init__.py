"""The tournament formats, by the name a bracket gives in ``format``."""

from __future__ import annotations

from .base import Format, PlayedRound, RoundContext, Table, ranking
from .gauntlet import GAUNTLET
from .knockout import KNOCKOUT
from .round_robin import ROUND_ROBIN
from .swiss import SWISS

__all__ = ["FORMATS", "Format", "PlayedRound", "RoundContext", "Table", "ranking"]

FORMATS: dict[str, Format] = {
    "round-robin": ROUND_ROBIN,
    "gauntlet": GAUNTLET,
    "swiss": SWISS,
    "knockout": KNOCKOUT,
}
"""Known formats by name."""
