"""Database paths that cannot be used are refused with one line naming the file once, exit 1, and
leave nothing beside the file: a folder, an empty path, a place where nothing can be created, a
damaged file, another program's database or a newer schema."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from server.store.database import StoreError
from server.store.models import SCHEMA_VERSION
from server.store.repository import Store

from ..commands import invoke

BRACKET = """\
name: t
players: 2
entrants:
  - {name: a, address: "127.0.0.1:1"}
  - {name: b, address: "127.0.0.1:1"}
"""


def beside(path: Path) -> list[str]:
    """The files next to ``path`` that SQLite would leave: its -wal, -shm or -journal."""
    return sorted(p.name for p in path.parent.glob(f"{path.name}-*"))


def newer_database(path: Path) -> Path:
    Store.open(path, create=True).close()
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("UPDATE schema_info SET version = version + 1")
        connection.commit()
    assert beside(path) == []
    return path


def damaged_database(path: Path) -> Path:
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    return path


def foreign_database(path: Path) -> Path:
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE notes (text TEXT)")
        connection.commit()
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            newer_database,
            f"written by a newer smtourney (schema {SCHEMA_VERSION + 1}; "
            f"this one reads up to {SCHEMA_VERSION}); upgrade smtourney to use it",
        ),
        (damaged_database, "not a SQLite database (file is not a database)"),
        (foreign_database, "not a smtourney database (it has no schema_info table)"),
    ],
    ids=["newer", "damaged", "foreign"],
)
def test_a_refused_file_is_left_exactly_as_it_was(tmp_path: Path, make: object, message: str) -> None:
    assert callable(make)
    path: Path = make(tmp_path / "x.db")
    before = path.read_bytes()
    bracket = tmp_path / "b.yaml"
    bracket.write_text(BRACKET)
    for args in (["standings"], ["matches", "--json"], ["replay", "r1-t000-s0"], ["verify"]):
        assert invoke(*args, "--db", str(path)) == (1, f"error: {path}: {message}\n")
    assert invoke("run", str(bracket), "--db", str(path)) == (1, f"error: {path}: {message}\n")
    assert path.read_bytes() == before
    assert beside(path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.yaml", "x.db"]


@pytest.mark.parametrize(
    ("db", "message"),
    [
        (".", "is a folder, not a database file"),
        ("", "is a folder, not a database file"),  # an empty path is the working folder
        ("sub", "is a folder, not a database file"),
        ("b.yaml/x.db", "cannot create the folder b.yaml: File exists"),
        ("/proc/smtourney-test.db", "cannot create the database: No such file or directory"),
        ("pipe.db", "not a database file (a named pipe)"),
    ],
)
def test_a_place_that_cannot_hold_a_database_is_refused(tmp_path: Path, db: str, message: str) -> None:
    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "pipe.db")
    bracket = tmp_path / "b.yaml"
    bracket.write_text(BRACKET)
    before = sorted(p.name for p in tmp_path.iterdir())
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        code, output = invoke("run", str(bracket), "--db", db)
    finally:
        os.chdir(cwd)
    shown = str(Path(db))
    assert (code, output) == (1, f"error: {shown}: {message}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_the_path_is_named_once_in_every_store_error(tmp_path: Path) -> None:
    path = tmp_path / "gone.db"
    code, output = invoke("standings", "--db", str(path))
    assert (code, output) == (1, f"error: {path}: no such database\n")
    assert output.count(str(path)) == 1


def test_special_characters_in_a_path_name_that_file(tmp_path: Path) -> None:
    """``?`` and ``#`` are part of the file name, not URL syntax."""
    bracket = tmp_path / "b.yaml"
    bracket.write_text(BRACKET)
    path = tmp_path / "league?mode=memory#x.db"
    code, output = invoke("run", str(bracket), "--db", str(path))
    assert code == 0, output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["b.yaml", path.name, f"{path.stem}-logs"])
    store = Store.open(path)
    try:
        assert store.tournament() is not None
    finally:
        store.close()


def test_damage_found_after_opening_is_one_line(tmp_path: Path) -> None:
    """A page damaged inside a table is only met when read: still one line, exit 1."""
    bracket = tmp_path / "b.yaml"
    bracket.write_text(BRACKET)
    path = tmp_path / "b.db"
    assert invoke("run", str(bracket))[0] == 0
    with closing(sqlite3.connect(path)) as connection:
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        # Every page holding replays: opening reads none of them, a replay reads its own. (Which page
        # holds a block varies with its size, which measured times change from run to run.)
        pages = [
            row[0]
            for row in connection.execute(
                "SELECT pageno FROM dbstat WHERE name = 'match_steps' AND pagetype IN ('leaf', 'overflow')"
            )
        ]
        (last_match,) = connection.execute("SELECT match_id FROM match ORDER BY id DESC LIMIT 1").fetchone()
    assert pages
    with path.open("r+b") as handle:
        for page in pages:
            handle.seek((page - 1) * page_size)
            handle.write(b"\xa5" * page_size)
    code, output = invoke("replay", last_match, "--db", str(path))
    assert code == 1 and output.startswith(f"error: {path}: the database cannot be used: ")
    assert output.count("\n") == 1


def test_store_errors_carry_the_path_and_the_message_apart(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as caught:
        Store.open(tmp_path / "none.db")
    assert (caught.value.path, caught.value.message) == (tmp_path / "none.db", "no such database")
