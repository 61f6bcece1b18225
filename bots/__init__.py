"""Reference bots, each runnable as its own process."""
