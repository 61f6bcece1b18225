"""The Cities heuristic bot: one-ply lookahead on determinizations under a hand-made evaluation.

Design and measured strength: ``bots/README.md``.

    python -m bots.cities --port 50051
"""

from .bot import CitiesHeuristicBot, main
from .evaluation import Weights, position_value
from .policy import CitiesPolicy

__all__ = ["CitiesHeuristicBot", "CitiesPolicy", "Weights", "main", "position_value"]
