"""``python -m bots.masons --port N`` serves the greedy Masons bot."""

from .bot import main

main()
