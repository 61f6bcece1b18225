"""The Bruges heuristic bot: a greedy one-step policy over the options its observation lists."""

from .policy import BrugesPolicy

__all__ = ["BrugesPolicy"]
