"""The random bot, thinking for a while before each decision, so that a tournament lasts long enough
to be watched while it runs.

    SMTOURNEY_THINK_MS=30 python -m tests.bots.slow_bot
"""

from __future__ import annotations

import os
import time
from typing import Any

from bots.random import RandomBot
from sdk.games.decisions import DecisionContext
from sdk.serve import run

THINK_MS_ENV = "SMTOURNEY_THINK_MS"


class SlowBot(RandomBot):
    name = "slow-random"

    def __init__(self, think_ms: int) -> None:
        self.think_s = think_ms / 1000

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        time.sleep(self.think_s)
        return super().decide(kind, observation, context)


def main() -> None:
    run(SlowBot(int(os.environ.get(THINK_MS_ENV, "20"))))


if __name__ == "__main__":
    main()
