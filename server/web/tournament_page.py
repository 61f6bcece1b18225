"""A tournament's page, section by section.

The page renders every section; while a run goes, its script asks for them again about once a
second and swaps in those that changed (``static/live_tournament.js``), so no section keeps the
numbers of page load and the page turns into a finished tournament's without a reload. Both come
from the same template, so the page and its updates cannot disagree; the figures of stored matches
are the catalog's, kept until another match is stored, so a poll costs little.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.tournament.report import pairing_text, seat_verdict

from .catalog import Catalog
from .kept import KeptFigure
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


class TournamentPage:
    """The tournament page and its sections over the catalog and the live feed."""

    def __init__(self, catalog: Catalog, live: Live) -> None:
        self.catalog = catalog
        self.live = live
        #: The rating chart, laid out once per stored state like the history it draws (thousands of
        #: points: laying it out costs a large tournament's page more than all else).
        self._plots = KeptFigure[RatingPlot]()

    def page(self, tournament_id: int) -> str:
        return render("tournament.html", **self._context(tournament_id))

    def sections(self, tournament_id: int) -> str:
        return render(SECTIONS, **self._context(tournament_id))

    def _context(self, tournament_id: int) -> dict[str, Any]:
        """Figures of the stored matches come from the catalog, which keeps them until another match
        is stored; the live feed says what is in flight."""
        tournament = self.catalog.tournament(tournament_id)
        progress = self.live.flight(tournament_id)
        standings = self.catalog.standings(tournament_id)
        statistics = self.catalog.statistics(tournament_id)
        return {
            "tournament": tournament,
            "progress": progress,
            "running": progress["running"],
            "matches": progress["done"],
            "standings": standings,
            "knockout": self.catalog.knockout(tournament_id),
            "statistics": statistics,
            "plot": self._plot(tournament_id),
            "head_to_head": ranked_head_to_head(statistics, standings),
            "share_colour": share_colour,
            "scale": SCALE,
            "pairing_text": pairing_text,
            "seat_verdict": seat_verdict,
        }

    def _plot(self, tournament_id: int) -> RatingPlot:
        state = self.catalog.stored_state(tournament_id)
        return self._plots.get(
            tournament_id, state, lambda: rating_plot(self.catalog.rating_history(tournament_id))
        )
