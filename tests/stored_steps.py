"""Tampering with the steps a SQLite database stores for a match, as damage or forgery would: for
the tests of the readers that must catch it (replay, verify, the web viewer)."""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from server.record import StepRecord
from server.steps_block import decode_steps, encode_steps

_BLOCK_OF = "(SELECT id FROM match WHERE match_id = ?)"


def overwrite_block(db: Path, match_id: str, block: bytes) -> None:
    """Store ``block`` as the steps of ``match_id``."""
    with closing(sqlite3.connect(db)) as connection:
        changed = connection.execute(
            f"UPDATE match_steps SET block = ? WHERE match_pk = {_BLOCK_OF}", (block, match_id)
        ).rowcount
        connection.commit()
    assert changed == 1, match_id


def rewrite_step(
    db: Path, match_id: str, chosen: Callable[[StepRecord], bool], change: Callable[[StepRecord], None]
) -> int:
    """Apply ``change`` to the first stored step of ``match_id`` that is ``chosen``; its seq."""
    with closing(sqlite3.connect(db)) as connection:
        (block,) = connection.execute(
            f"SELECT block FROM match_steps WHERE match_pk = {_BLOCK_OF}", (match_id,)
        ).fetchone()
    steps = decode_steps(block)
    step = next(step for step in steps if chosen(step))
    change(step)
    overwrite_block(db, match_id, encode_steps(steps))
    return step.seq


def replace_step(new: dict[str, object]) -> Callable[[StepRecord], None]:
    """A change that makes a step's JSON ``new``."""

    def change(step: StepRecord) -> None:
        step.step = new

    return change


#: Blocks that cannot be read as steps, and what is wrong with each.
BROKEN_BLOCKS = {
    "not-compressed": b"not zlib",
    "not-json": zlib.compress(b"{not json"),
    "missing-columns": zlib.compress(b'{"seq":[0]}'),
    "truncated": encode_steps([StepRecord(0, "chance", {})])[:-3],
}
