"""The final score table (C7: score = empires + wonders bonus): each seat's points by source."""

from __future__ import annotations

from sdk.games.score_rows import ScoreRow

from .cards import EMPIRE_MASKS, Empire
from .state import WONDERS_BONUS, State


def score_rows(state: State) -> tuple[ScoreRow, ...]:
    """Empires completed (C5, a point each) and the wonders bonus (C6); they add up to the score."""
    seats = range(state.n)
    return (
        ScoreRow(
            "empires",
            "empires completed (1 point each)",
            tuple(sum(1 for empire in Empire if state.done[seat] & EMPIRE_MASKS[empire]) for seat in seats),
        ),
        ScoreRow(
            "wonders",
            f"wonders bonus ({WONDERS_BONUS} points)",
            tuple(WONDERS_BONUS if seat == state.wonders else 0 for seat in seats),
        ),
    )
