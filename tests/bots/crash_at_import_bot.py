"""A bot that never comes up: it fails while its modules are imported, as a bot with a typo does."""

raise RuntimeError("this bot fails while it is imported")
