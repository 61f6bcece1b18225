"""``python -m server`` is the ``smtourney`` command."""

from .cli import main

main()
