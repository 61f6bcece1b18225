"""The search reference bot: expectimax over each turn's dice under a tuned evaluation.

Design, tuning and measured strength: ``bots/README.md``.

    python -m bots.search --port 50051
"""

from .evaluation import Weights, position_value
from .policy import SearchBot, SearchPolicy, main

__all__ = ["SearchBot", "SearchPolicy", "Weights", "main", "position_value"]
