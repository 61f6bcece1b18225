"""A score as the contract keeps it: a whole number as an int, any other as the exact float.

Most games score whole points; a few end in fractions (OpenSpiel's returns where a pot is split or
a game's value is scaled). Whole numbers stay ints, so they print, store and compare as they always
have, and a fraction is kept exactly, never rounded.
"""

from __future__ import annotations

__all__ = ["plain_score"]


def plain_score(value: float) -> float:
    """``value`` as an int when it is a whole number (``2.0`` becomes ``2``), else unchanged."""
    number = float(value)
    return int(number) if number.is_integer() else number
