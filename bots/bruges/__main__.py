"""``python -m bots.bruges --port N`` serves the Bruges heuristic bot."""

from .bot import main

main()
