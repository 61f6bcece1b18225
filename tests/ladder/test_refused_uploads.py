"""Refused archive uploads count against the hour in the database, so a restart of the service does
not reset them (real servers on 127.0.0.1, one after the other on the same SQLite file), and a
schema 6 database gets their table."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from server.ladder.store import LadderStore, LimitError, SubmissionLimits
from server.store.models import SCHEMA_VERSION
from server.store.repository import Store

from .test_api import bots, serving
from .test_archive import CORPUS_LADDER, HOSTILE, member, tar_gz, upload
from .test_organiser import add, rows

REFUSED = HOSTILE["dot-dot in a tar"][0]


def test_refused_archives_still_count_after_a_restart(tmp_path: Path) -> None:
    with serving(tmp_path, CORPUS_LADDER) as api:
        token = add(api.db, "ada")
        for name in ("a", "b", "c"):
            assert upload(api, token, REFUSED, name=name).status == 422
    with serving(tmp_path, CORPUS_LADDER) as api:
        again = upload(api, token, tar_gz(member("bot.py")), name="d")
        assert again.status == 429 and "3 submissions in the last hour" in again.body["detail"], again
        assert bots(api) == []


def test_refusals_older_than_the_hour_no_longer_count_and_are_forgotten(tmp_path: Path) -> None:
    with closing(Store.open(tmp_path / "l.db", create=True)) as store:
        ladders = LadderStore(store)
        ladders.add_participant("ada")
        (ada,) = ladders.participants()
        assert ada.id is not None
        ladders.add_refused_upload(ada.id)
        limits = SubmissionLimits(validating=10, per_hour=2)
        ladders.check_limits(ada.id, limits)  # one refusal of two allowed
        an_hour_ago = (datetime.now(UTC) - timedelta(hours=1, seconds=1)).strftime("%Y-%m-%d %H:%M:%S.%f")
        with closing(sqlite3.connect(tmp_path / "l.db")) as connection:
            connection.execute("UPDATE ladder_refused_upload SET refused_at = ?", (an_hour_ago,))
            connection.commit()
        ladders.add_refused_upload(ada.id)
        ladders.add_refused_upload(ada.id)
        with pytest.raises(LimitError, match="2 submissions in the last hour"):
            ladders.check_limits(ada.id, limits)
    assert rows(tmp_path / "l.db", "SELECT COUNT(*) FROM ladder_refused_upload") == [(2,)]


def test_a_schema_6_database_gets_the_refused_uploads_table(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    Store.open(db, create=True).close()
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("DROP TABLE ladder_refused_upload")
        connection.execute("UPDATE schema_info SET version = 6")
        connection.commit()
    with closing(Store.open(db)) as store:
        ladders = LadderStore(store)
        ladders.add_participant("ada")
        (ada,) = ladders.participants()
        assert ada.id is not None
        ladders.add_refused_upload(ada.id)
    assert rows(db, "SELECT version FROM schema_info") == [(SCHEMA_VERSION,)] == [(9,)]
    assert rows(db, "SELECT COUNT(*) FROM ladder_refused_upload") == [(1,)]
