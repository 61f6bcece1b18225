"""Entrants that keep forfeiting: a bot that forfeits match after match is broken, not unlucky,
and the organiser should hear of it while the run goes on, not from the standings at the end."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: Forfeits in a row after which an entrant is named.
STREAK = 3


class ForfeitStreaks:
    """Consecutive forfeits per entrant, fed one match at a time."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.current = [0] * len(names)
        self.longest = [0] * len(names)

    def add(self, entrants: Sequence[int], forfeited: Sequence[bool]) -> None:
        """One match: the entrant of each seat, and whether that seat was forfeited.

        An entrant with several seats at the table counts the match once, as a forfeit if
        any of its seats forfeited.
        """
        lost: dict[int, bool] = {}
        for entrant, gone in zip(entrants, forfeited, strict=True):
            lost[entrant] = lost.get(entrant, False) or gone
        for entrant, gone in lost.items():
            self.current[entrant] = self.current[entrant] + 1 if gone else 0
            self.longest[entrant] = max(self.longest[entrant], self.current[entrant])

    def forfeiting(self) -> list[str]:
        """Entrants whose last ``STREAK`` matches or more were all forfeited."""
        return [name for name, run in zip(self.names, self.current, strict=True) if run >= STREAK]

    def summary(self) -> list[str]:
        """One phrase per entrant that ever forfeited ``STREAK`` matches in a row."""
        return [
            f"{name} forfeited {run} matches in a row"
            for name, run in zip(self.names, self.longest, strict=True)
            if run >= STREAK
        ]


def streaks_of(
    names: Sequence[str], results: Iterable[tuple[Sequence[int], Sequence[bool]]]
) -> ForfeitStreaks:
    """The streaks of finished matches, given as (entrants, forfeited) in schedule order."""
    streaks = ForfeitStreaks(names)
    for entrants, forfeited in results:
        streaks.add(entrants, forfeited)
    return streaks
