"""What a position is worth to each seat where a simulation stops: points now and to come.

A seat's worth is its score, plus what final scoring would add if the game ended here (persons,
houses, canals, statues, reputation, majorities already flipped), plus rough point values of what
it holds and has not yet turned into points (guilders, workers, hand cards), less the threat
markers that bring a penalty closer. Held things are worth less as the end nears, and nothing once
the game is over. Rewards compare each seat with its strongest rival.
"""

from __future__ import annotations

import math

from sdk.games.bruges.scoring import final_points
from sdk.games.bruges.state import State

#: Points a held resource is worth before the final round is known (then halved, then nothing).
GUILDER = 0.3
WORKER = 0.3
HAND_CARD = 0.9
#: A threat marker, and the extra of a second one of the same colour (a circle one marker away).
THREAT = 0.3
THREAT_PAIR = 0.7
TIE_BREAK = 0.01
#: Points of lead at which a seat's reward is about 0.73 (a logistic of its lead).
LEAD_SCALE = 6.0


def worth(state: State, seat: int) -> float:
    """``seat``'s points now, those final scoring would add, and what it holds, in points."""
    if state.is_terminal():  # final scoring is in the score; guilders break ties (B22)
        return state.score[seat] + TIE_BREAK * state.guilders[seat]
    points = state.score[seat] + sum(final_points(state, seat).values())
    held = 1.0 if state.final_round < 0 else 0.5 if state.round < state.final_round else 0.25
    resources = (
        GUILDER * state.guilders[seat]
        + WORKER * sum(state.workers[seat])
        + HAND_CARD * len(state.hands[seat])
    )
    danger = sum(THREAT * t + (THREAT_PAIR if t == 2 else 0.0) for t in state.threats[seat])
    return points + held * resources - danger


def rewards(state: State) -> list[float]:
    """Each seat's lead over the best other seat, squashed into (0, 1)."""
    values = [worth(state, seat) for seat in range(state.n)]
    out = []
    for seat, mine in enumerate(values):
        rival = max(v for other, v in enumerate(values) if other != seat)
        out.append(1 / (1 + math.exp(-(mine - rival) / LEAD_SCALE)))
    return out
