"""Rows of plain data as CSV for spreadsheets: nested values flattened into columns of their own."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any


def flatten(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}, "c": (2, 3)}`` -> ``{"a_b": 1, "c_low": 2, "c_high": 3}``: a tuple of two
    is an interval; a list is joined with `` | ``."""
    flat: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, f"{name}_"))
        elif isinstance(value, tuple) and len(value) == 2:
            flat[f"{name}_low"], flat[f"{name}_high"] = value
        elif isinstance(value, list | tuple):
            flat[name] = " | ".join(str(v) for v in value)
        else:
            flat[name] = value
    return flat


def to_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every row flattened; the columns are every key met, in the order first met."""
    flat = [flatten(row) for row in rows]
    columns = list(dict.fromkeys(key for row in flat for key in row))
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows(flat)
    return out.getvalue()
