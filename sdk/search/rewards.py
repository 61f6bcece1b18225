"""Per-seat rewards in [0, 1]: every seat maximises its own result, however many players.

A seat's reward is the share of the other seats it finishes ahead of, a tie counting half.
So at two players it is win 1, draw 0.5, loss 0; at more players second place is worth more
than last, which keeps a seat playing for places when it cannot win.
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk.games.plugin import GameState


def rank_rewards(values: Sequence[float], *, higher_is_better: bool = True) -> list[float]:
    """Each seat's share of the other seats it beats on ``values`` (ties count half)."""
    n = len(values)
    if n < 2:
        return [1.0] * n
    sign = 1.0 if higher_is_better else -1.0
    rewards = []
    for mine in values:
        ahead = sum(1.0 if sign * (mine - other) > 0 else 0.5 if mine == other else 0.0 for other in values)
        rewards.append((ahead - 0.5) / (n - 1))  # the seat ties with itself: take that half away
    return rewards


def terminal_rewards(state: GameState) -> list[float]:
    """Rewards by the game's final ranks (tie-breaks included) when it is over, else by its scores."""
    if state.is_terminal():
        return rank_rewards(state.ranks(), higher_is_better=False)
    return rank_rewards(state.scores())
