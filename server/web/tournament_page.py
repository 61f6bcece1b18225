"""A tournament's page, section by section.

The page renders every section; while a run goes, its script asks for them again about once a
second and swaps in those that changed (``static/live_tournament.js``), so no section keeps the
numbers of page load and the page turns into a finished tournament's without a reload. Both come
from the same template, so the page and its updates cannot disagree.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.tournament.report import pairing_text, seat_verdict

from .catalog import Catalog
from .live import Live
from .plot import RatingPlot, rating_plot
from .templating import render

#: The updatable sections alone, as the page's script fetches them.
SECTIONS = "_tournament_sections.html"
#: The head-to-head's colour scale: a share of 0, one half and 1 (diverging, readable for
#: red-green colour blindness, dark text legible on each).
BEHIND, EVEN, AHEAD = (0xF4, 0xA5, 0x82), (0xFF, 0xFF, 0xFF), (0x92, 0xC5, 0xDE)


def _hex(rgb: Sequence[int]) -> str:
    return "#" + "".join(f"{part:02x}" for part in rgb)


def share_colour(share: float) -> str:
    """The head-to-head cell's background for a share finished ahead: white when even, deeper the
    further the share is from one half, towards blue when ahead and orange when behind."""
    end = AHEAD if share >= 0.5 else BEHIND
    weight = abs(share - 0.5) * 2
    return _hex([round(e + (f - e) * weight) for e, f in zip(EVEN, end, strict=True)])


#: The CSS gradient of the colour scale's legend: the same colours as the cells.
SCALE = f"linear-gradient(to right, {_hex(BEHIND)}, {_hex(EVEN)}, {_hex(AHEAD)})"


def ranked_head_to_head(
    statistics: dict[str, Any], standings: list[dict[str, Any]]
) -> list[tuple[str, list[dict[str, Any]]]]:
    """The head-to-head's rows, and the cells of each, in the standings' order: the strongest read
    first, and how each fares against those above and below it shows at a glance."""
    names = statistics["entrants"]
    index = {name: position for position, name in enumerate(names)}
    order = [index[row["name"]] for row in standings]
    return [(names[r], [statistics["head_to_head"][r][c] for c in order]) for r in order]


@dataclass(frozen=True, slots=True)
class _Stored:
    """What the stored matches say, worked out once per newly stored match, not once per poll."""

    done: int
    standings: list[dict[str, Any]]
    knockout: dict[str, Any] | None
    statistics: dict[str, Any]
    plot: RatingPlot


class TournamentPage:
    """The tournament page and its sections over the catalog and the live feed."""

    def __init__(self, catalog: Catalog, live: Live) -> None:
        self.catalog = catalog
        self.live = live
        self._kept: dict[int, _Stored] = {}
        self._lock = threading.Lock()  # requests are served on several threads

    def page(self, tournament_id: int) -> str:
        return render("tournament.html", **self._context(tournament_id))

    def sections(self, tournament_id: int) -> str:
        return render(SECTIONS, **self._context(tournament_id))

    def _context(self, tournament_id: int) -> dict[str, Any]:
        tournament = self.catalog.tournament(tournament_id)
        progress = self.live.flight(tournament_id)
        stored = self._stored(tournament_id, progress["done"])
        return {
            "tournament": tournament,
            "progress": progress,
            "running": progress["running"],
            "matches": progress["done"],
            "standings": stored.standings,
            "knockout": stored.knockout,
            "statistics": stored.statistics,
            "plot": stored.plot,
            "head_to_head": ranked_head_to_head(stored.statistics, stored.standings),
            "share_colour": share_colour,
            "scale": SCALE,
            "pairing_text": pairing_text,
            "seat_verdict": seat_verdict,
        }

    def _stored(self, tournament_id: int, done: int) -> _Stored:
        with self._lock:
            kept = self._kept.get(tournament_id)
        if kept is not None and kept.done == done:
            return kept
        kept = _Stored(
            done=done,
            standings=self.catalog.standings(tournament_id),
            knockout=self.catalog.knockout(tournament_id),
            statistics=self.catalog.statistics(tournament_id),
            plot=rating_plot(self.catalog.rating_history(tournament_id)),
        )
        with self._lock:
            self._kept[tournament_id] = kept
        return kept
