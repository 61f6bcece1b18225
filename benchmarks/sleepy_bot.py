"""The random bot, thinking for a fixed time on every decision: a stand-in for a slow bot.

    SMTOURNEY_THINK_MS=50 python -m benchmarks.sleepy_bot

It sleeps ``SMTOURNEY_THINK_MS`` milliseconds (default 50), then answers as ``bots.random`` does,
for every installed game. ``benchmarks/simultaneous.py`` plays it to time simultaneous decisions.
"""

from __future__ import annotations

import os
import time
from typing import Any

from bots.random import RandomBot
from sdk.games.decisions import DecisionContext
from sdk.serve import run

THINK_MS_ENV = "SMTOURNEY_THINK_MS"


class SleepyBot(RandomBot):
    name = "sleepy"

    def __init__(self, think_ms: int) -> None:
        self.think_s = think_ms / 1000

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        time.sleep(self.think_s)
        return super().decide(kind, observation, context)


def main() -> None:
    run(SleepyBot(int(os.environ.get(THINK_MS_ENV, "50"))))


if __name__ == "__main__":
    main()
