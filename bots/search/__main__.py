"""``python -m bots.search --port N`` serves the search bot."""

from . import main

main()
