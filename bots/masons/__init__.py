"""The greedy Masons bot: values its hand against the board, one decision at a time.

python -m bots.masons --port 50051
"""

from .bot import MasonsGreedyBot, main
from .policy import decide

__all__ = ["MasonsGreedyBot", "decide", "main"]
