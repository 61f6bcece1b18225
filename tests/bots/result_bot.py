"""A random bot that writes down how each of its matches ended, as the SDK handed it over.

    SMTOURNEY_RESULT_DIR=DIR python -m tests.bots.result_bot

Each process appends one JSON line per match to ``DIR/<pid>.jsonl``: the match id and the scores
and ranks its ``end_match`` received, so a test can compare them with what the referee stored.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from bots.random import RandomBot
from sdk.bot import MatchResult
from sdk.serve import run

RESULT_DIR_ENV = "SMTOURNEY_RESULT_DIR"


class ResultBot(RandomBot):
    name = "result-recorder"

    def end_match(self, result: MatchResult) -> None:
        line = {"match_id": result.match_id, "scores": list(result.scores), "ranks": list(result.ranks)}
        with (Path(os.environ[RESULT_DIR_ENV]) / f"{os.getpid()}.jsonl").open("a") as out:
            out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    run(ResultBot())
