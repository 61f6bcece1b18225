"""The ladder's data folder: each submitted program unpacked in a folder of its own.

``DATA/programs/<random name>/`` holds one archive's files; its path (or that of the archive's
single top-level folder) is the ``dir`` of the bot's ``spec_json``. An upload is spooled to an
unnamed file in ``DATA/incoming/`` (gone when closed, even if the service is killed), unpacked by
:func:`server.ladder.archive.unpack` and removed again if the bot is not stored.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from .archive import unpack

__all__ = ["Programs", "default_data_dir"]


def default_data_dir(database: Path) -> Path:
    """``<database stem>-data`` beside the SQLite file."""
    return database.with_name(f"{database.stem}-data")


class Programs:
    """Submitted programs under ``data_dir``."""

    def __init__(self, data_dir: Path) -> None:
        self.root = data_dir.resolve()
        self.programs = self.root / "programs"

    @contextmanager
    def upload(self) -> Iterator[IO[bytes]]:
        """A file to receive an upload in, on the data folder's disk; gone once closed."""
        incoming = self.root / "incoming"
        incoming.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=incoming) as file:
            yield file

    def unpack(self, upload: IO[bytes], max_bytes: int) -> Path:
        """Unpack ``upload`` into a new folder; the program folder (raises ``ArchiveError``)."""
        upload.seek(0)
        return unpack(upload, self.programs / secrets.token_hex(16), max_bytes=max_bytes)

    def discard(self, program_dir: Path) -> None:
        """Remove the folder a program was unpacked into."""
        relative = program_dir.relative_to(self.programs)
        shutil.rmtree(self.programs / relative.parts[0], ignore_errors=True)
