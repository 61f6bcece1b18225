"""How a problem in a bracket file is located and worded: file, line, field, message."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

__all__ = ["BracketError", "FieldError", "Loc", "format_path", "show"]

Loc = tuple[int | str, ...]
"""A path into the bracket: mapping keys and list indices, e.g. ``("entrants", 2, "name")``."""


class BracketError(ValueError):
    """A bracket file that cannot be used, located as precisely as possible.

    ``line`` is 1-based (``None`` when the problem has no line, e.g. a missing file);
    ``field`` is a dotted path such as ``entrants[2].command`` (``None`` for the
    whole file).
    """

    def __init__(self, path: Path, line: int | None, field: str | None, message: str) -> None:
        # All four go to args, so the error survives pickling (worker processes).
        super().__init__(path, line, field, message)
        self.path = path
        self.line = line
        self.field = field
        self.message = message

    def __str__(self) -> str:
        where = str(self.path) if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class FieldError(ValueError):
    """A validator's error about a part of its input; ``loc`` is relative to the validator.

    Pydantic locates a validator's error at the validated value; this carries the
    rest of the way, e.g. to one entrant's ``name`` from the ``entrants`` validator.
    """

    def __init__(self, message: str, loc: Loc) -> None:
        super().__init__(message)
        self.loc = loc


def format_path(loc: Sequence[int | str]) -> str:
    """``("entrants", 2, "name")`` as ``entrants[2].name``: how users see a field."""
    text = ""
    for part in loc:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def show(value: object) -> str:
    """A value as a YAML writer thinks of it (long values shortened)."""
    if value is None:
        return "null (nothing)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int) and abs(value) >= 10**30:
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text)} characters)"
