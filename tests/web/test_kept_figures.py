"""The viewer works out a tournament's standings, statistics, knockout and rating history once per
stored state, and works them out again as soon as another match is stored (as during a run)."""

from __future__ import annotations

from pathlib import Path

from server.store.repository import Placement, Store
from server.web.catalog import Catalog

from ..store.test_seat_clocks import record, stored


def figures(catalog: Catalog) -> list[object]:
    return [
        catalog.standings(1),
        catalog.statistics(1),
        catalog.knockout(1),
        catalog.rating_history(1),
        catalog.match_count(1),
    ]


def test_figures_are_kept_until_another_match_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    stored(db, matches=3)
    store = Store.open(db)
    try:
        catalog = Catalog(store)
        first = figures(catalog)
        again = figures(catalog)
        assert all(a is b for a, b in zip(first[:4], again[:4], strict=True))  # kept, not worked out again
        assert first[4] == 3 and [row["matches"] for row in catalog.standings(1)] == [3, 3]

        writer = Store.open(db)  # another process's run stores its next match
        try:
            assert writer.save_match(1, Placement(3, 4, 0, 0), record(3), [1, 0])
        finally:
            writer.close()

        after = figures(catalog)
        assert after == figures(Catalog(store)) and after != first
        assert after[4] == 4 and [row["matches"] for row in catalog.standings(1)] == [4, 4]
        assert [len(points) for points in catalog.rating_history(1).values()] == [5, 5]
    finally:
        store.close()
