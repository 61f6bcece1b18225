"""``python -m bots.cities --port N`` serves the Cities heuristic bot."""

from .bot import main

main()
