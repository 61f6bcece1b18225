"""A bot whose method raises: the random bot, but every decision raises ``ValueError("boom-3141")``.

python -m tests.bots.raising_bot
"""

from __future__ import annotations

from typing import Any

from bots.random import RandomBot
from sdk.games.decisions import DecisionContext
from sdk.serve import run

MESSAGE = "boom-3141"


class RaisingBot(RandomBot):
    name = "raising"
    version = "1"

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        raise ValueError(MESSAGE)


if __name__ == "__main__":
    run(RaisingBot())
