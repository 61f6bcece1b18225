"""A bot that answers every decision of one game by information-set search from its observation."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.games.registry import get_game

from .budget import Budget
from .determinize import determinizer, seated
from .mcts import InformationSetSearch

#: A heuristic's answer to the decision (a bot's ``decide``), which the search keeps unless it finds better.
Prior = Callable[[str, Any, DecisionContext], Any]


def decision_seed(context: DecisionContext) -> int:
    """A seed from the decision's public identity, so that a replayed match searches the same way."""
    key = f"{context.match_id}/{context.seat}/{context.decision_id}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")


#: Share of the referee's per-decision time a search may use (the rest is transport and slack).
TIME_SHARE = 0.5


def search_seconds(context: DecisionContext) -> float | None:
    """How long a search may take on this decision: a share of the referee's limit, None without one."""
    return context.decision_ms / 1000 * TIME_SHARE if context.decision_ms > 0 else None


class SearchBot(Bot):
    """Searches each decision with ``search`` within its budget, capped at a share of the decision's time.

    Stateless between decisions (no tree is kept, see :mod:`sdk.search.mcts`), so it serves
    concurrent matches safely.
    """

    name: ClassVar[str] = "search"
    version: ClassVar[str] = "1.0"
    author: ClassVar[str] = "smtourney"

    def __init__(self, game: str, search: InformationSetSearch, prior: Prior | None = None) -> None:
        self.game = game
        self.prior = prior
        self.plugin = get_game(game)
        self.search = search

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        search = self.search
        allowed = search_seconds(context)
        budget = search.budget
        if allowed is not None and (budget.seconds is None or budget.seconds > allowed):
            search = InformationSetSearch(
                Budget(budget.iterations, allowed),
                rollout=search.rollout,
                evaluate=search.evaluate,
                config=search.config,
            )
        deal = seated(determinizer(self.plugin, observation, context.seat), context.seat, search.rollout)
        prefer = None if self.prior is None else self.prior(kind, observation, context)
        return search.search(deal, decision_seed(context), prefer).action
