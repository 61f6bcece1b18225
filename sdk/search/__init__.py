"""Search over the game contract, for any installed game.

A bot hands the search its observation; the search deals the hidden part at random many times
(``determinize``), plays each deal forward on the game's own engine (``legal_actions``,
``apply``, ``clone``, chance sampling, ``scores``) and answers with the action that did best for
the deciding seat: by information-set Monte Carlo tree search (``InformationSetSearch``), or by
flat Monte Carlo over a heuristic's best options on common deals (``compare_candidates``). How to
write a bot with it: docs/search.md.
"""

from .budget import Budget
from .candidates import CandidateBudget, Playout, compare_candidates
from .determinize import Determinizer, determinizer, seated
from .mcts import ActionStats, InformationSetSearch, SearchConfig, SearchResult
from .rewards import rank_rewards, terminal_rewards
from .rollout import Evaluator, RolloutPolicy, random_rollout, seat_policy

__all__ = [
    "ActionStats",
    "Budget",
    "CandidateBudget",
    "Determinizer",
    "Evaluator",
    "InformationSetSearch",
    "Playout",
    "RolloutPolicy",
    "SearchConfig",
    "SearchResult",
    "compare_candidates",
    "determinizer",
    "random_rollout",
    "rank_rewards",
    "seat_policy",
    "seated",
    "terminal_rewards",
]
