"""A random bot for the example game that shows whether bids are asked at once.

    SMTOURNEY_MEETING_DIR=DIR python -m tests.bots.rendezvous_bot

On each bid it leaves a file for its seat under ``DIR/<match>/<round>/`` and waits (up to
:data:`PATIENCE_S`) until every seat still holding cards has left one: possible only when the
referee asked them all before any answered. It then appends ``met`` or ``alone`` to
``DIR/outcomes.txt`` and bids at random.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from bots.random import RandomBot
from sdk.games.decisions import DecisionContext
from sdk.serve import run

MEETING_DIR_ENV = "SMTOURNEY_MEETING_DIR"
PATIENCE_S = 2.0


class RendezvousBot(RandomBot):
    name = "rendezvous"

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        if kind == "bid":
            place = self.directory / context.match_id / str(observation.round)
            place.mkdir(parents=True, exist_ok=True)
            (place / str(context.seat)).touch()
            bidders = sum(1 for size in observation.hand_sizes if size)
            deadline = time.monotonic() + PATIENCE_S
            while len(list(place.iterdir())) < bidders and time.monotonic() < deadline:
                time.sleep(0.01)
            met = len(list(place.iterdir())) >= bidders
            with (self.directory / "outcomes.txt").open("a") as out:
                out.write(
                    f"{context.match_id} {observation.round} {context.seat} {'met' if met else 'alone'}\n"
                )
        return super().decide(kind, observation, context)


def main() -> None:
    run(RendezvousBot(Path(os.environ[MEETING_DIR_ENV])))


if __name__ == "__main__":
    main()
