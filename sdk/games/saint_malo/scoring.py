"""The final score table (ruling R6): each seat's points by source, in the rulebook's order.

Walls, then persons as the rulebook introduces them, are what the VP track gathered during play;
the full city, coins, logs, church series and lost cannons are added at the end.
"""

from __future__ import annotations

from sdk.games.score_rows import ScoreRow

from .pieces import ScorePart
from .state import State

DURING_PLAY = "during play (the VP track)"
AT_THE_END = "at the end"

#: Every score part once: its label and when it is scored.
ROWS: tuple[tuple[ScorePart, str, str], ...] = (
    (ScorePart.WALL_BONUSES, "complete wall sides (3 VP bonus)", DURING_PLAY),
    (ScorePart.CITIZENS, "citizens (1 VP each)", DURING_PLAY),
    (ScorePart.PRIESTS, "priests (1 VP per church beside)", DURING_PLAY),
    (ScorePart.HOUSES, "houses built by architects (3 VP each)", DURING_PLAY),
    (ScorePart.JUGGLERS, "jugglers (2 VP per person kind beside)", DURING_PLAY),
    (ScorePart.NOBLES, "nobles (7 VP each)", DURING_PLAY),
    (ScorePart.FULL_CITY, "full city (5 VP)", AT_THE_END),
    (ScorePart.COINS, "coins (1 VP per 2)", AT_THE_END),
    (ScorePart.LOGS, "logs (1 VP each)", AT_THE_END),
    (ScorePart.CHURCHES, "church series", AT_THE_END),
    (ScorePart.CANNONS, "cannons lost (-5 VP each)", AT_THE_END),
)


def score_rows(state: State) -> tuple[ScoreRow, ...]:
    """Every seat's score by source as if the game ended now; the rows add up to its score."""
    breakdowns = [city.score_breakdown() for city in state.cities]
    return tuple(
        ScoreRow(part.name.lower(), label, tuple(parts[part] for parts in breakdowns), stage)
        for part, label, stage in ROWS
    )
