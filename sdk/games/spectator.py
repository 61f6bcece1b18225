"""The spectator's share of a position: what every seat may know, and nothing more.

A live match is shown to the public as a spectator sees it, so that nobody watching can learn
(and pass on to a bot) a hand, a deck's order, a hidden card or a choice still pending. The
default derives it from the seats' own views, which each hold only what their seat may know:
a value every seat is shown alike is known to every seat; anything shown differently to two
seats is replaced by ``None`` (for dictionaries and lists of equal shape, part by part).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["common_part", "common_text"]


def common_part(views: Sequence[Any]) -> Any:
    """What ``views`` share: equal values kept, dictionaries and equal-length lists compared part
    by part, every other difference ``None``."""
    first = views[0]
    if all(view == first for view in views[1:]):
        return first
    if all(isinstance(view, dict) for view in views) and all(view.keys() == first.keys() for view in views):
        return {key: common_part([view[key] for view in views]) for key in first}
    if all(isinstance(view, list) for view in views) and all(len(view) == len(first) for view in views):
        return [common_part([view[i] for view in views]) for i in range(len(first))]
    return None


def common_text(texts: Sequence[str | None], decider: int | None) -> str | None:
    """A step's words for a spectator from each seat's (``None``: that seat learns nothing of it).

    A step some seat learns nothing of is not shown; words every seat is given are; when only the
    deciding seat is told more, the words every other seat is given; otherwise no details.
    """
    if any(text is None for text in texts):
        return None
    if len(set(texts)) == 1:
        return texts[0]
    others = {text for seat, text in enumerate(texts) if seat != decider}
    if decider is not None and len(others) == 1:
        return others.pop()
    return "a step whose details are hidden"
