"""``smtourney ladder recompute`` reads one moment of the database: against a ladder that keeps
playing (real ``ladder serve``, real bots, a real SQLite file) it finds nothing wrong, and what is
written while it reads is not seen (SQLite and PostgreSQL)."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from server.ladder.snapshot import snapshot
from server.ladder.store import LadderStore
from server.store.repository import Store
from server.tournament.commands import db_location

from ..servers.postgres import PostgresServer
from .conftest import cli
from .test_api import served
from .test_loop import FAST, activate, done, random_bots, wait_for  # noqa: F401  (the fixture)


def test_recompute_on_a_running_ladder_finds_nothing_wrong(
    tmp_path: Path,
    random_bots: list[str],  # noqa: F811
) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: busy\ngame: saint_malo\nplayers: 2\nmatchmaking: {workers: 2}\n" + FAST)
    db = tmp_path / "ladder.db"
    activate(db, "ada", {f"r{number}": address for number, address in enumerate(random_bots)})
    with served(path, "--log-dir", str(tmp_path / "logs")):
        wait_for(lambda: done(db) >= 3, "3 matches played")
        first = done(db)
        outputs = []
        while done(db) < first + 8:  # recomputed again and again while matches are stored
            code, output = cli("ladder", "recompute", str(path), "--json")
            assert code == 0, output
            outputs.append(output)
    assert len(outputs) >= 3


def _sees_only_the_first(store: Store) -> None:
    ladders = LadderStore(store)
    ladders.add_participant("ada")
    with snapshot(store) as frozen:
        ladders.add_participant("bob")  # written while the snapshot is read
        assert [p.name for p in LadderStore(frozen).participants()] == ["ada"]
        assert [p.name for p in LadderStore(frozen).participants()] == ["ada"]
    assert [p.name for p in ladders.participants()] == ["ada", "bob"]


def test_a_snapshot_does_not_see_what_is_written_while_it_is_read_sqlite(tmp_path: Path) -> None:
    with closing(Store.open(tmp_path / "ladder.db", create=True)) as store:
        _sees_only_the_first(store)


def test_a_snapshot_does_not_see_what_is_written_while_it_is_read_postgresql(
    postgres: PostgresServer,
) -> None:
    with closing(Store.open(db_location(postgres.new_database()), create=True)) as store:
        _sees_only_the_first(store)
