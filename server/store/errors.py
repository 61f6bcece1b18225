"""The one error every database failure becomes."""

from __future__ import annotations

from .location import Location

__all__ = ["StoreError"]


class StoreError(Exception):
    """The database cannot be used; ``str()`` is one line naming the file or URL (never a password)."""

    def __init__(self, path: Location, message: str) -> None:
        super().__init__(path, message)
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"
