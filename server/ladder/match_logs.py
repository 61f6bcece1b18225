"""Which of the log folder's files is a ladder bot's newest match log, for its owner to read.

A log file names its match, seat and bot (:func:`server.seats.log_path`), but a bot's name in a
file name is folded (:func:`server.seats.file_safe_name`), so two bots may share one: only the
files of matches and seats the store says the bot sat at are its own. A process kept between
matches writes all of them into the file of the match it was launched for, so the newest match's
output is in the file written last.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Set
from pathlib import Path

from server.seats import file_safe_name

from .log_budget import seat_log
from .seating import ladder_match_of

__all__ = ["newest_match_log"]


def newest_match_log(log_dir: Path, entrant: str, seats: Set[tuple[int, int]]) -> Path | None:
    """The bot's log written last among those of its ``seats`` (ladder match id, seat); None if none."""
    folded = file_safe_name(entrant)
    newest: tuple[float, Path] | None = None
    with contextlib.suppress(FileNotFoundError), os.scandir(log_dir) as entries:
        for entry in entries:
            named = seat_log(entry.name)
            if named is None or named.bot != folded:
                continue
            match = ladder_match_of(named.match_id)
            if match is None or (match, named.seat) not in seats:
                continue
            with contextlib.suppress(FileNotFoundError):
                mtime = entry.stat(follow_symlinks=False).st_mtime
                if newest is None or mtime > newest[0]:
                    newest = (mtime, Path(entry.path))
    return None if newest is None else newest[1]
