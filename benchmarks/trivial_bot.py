"""A bot that answers every decision with the safe default at once.

It thinks for no time, so a match against it measures what the wire and the
SDK cost per decision, not what a bot costs (see ``rpc_overhead.py``).

    python -m benchmarks.trivial_bot --port 50051
"""

from __future__ import annotations

from sdk.games.saint_malo.bot import DefaultBot
from sdk.serve import run


class TrivialBot(DefaultBot):
    name = "trivial"
    version = "1.0"
    author = "smtourney"


def main() -> None:
    run(TrivialBot())


if __name__ == "__main__":
    main()
