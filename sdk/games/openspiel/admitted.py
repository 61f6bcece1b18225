"""The admitted games: which OpenSpiel games passed the admission run
(``python -m sdk.games.openspiel.admit``), at which table sizes and parameters, and why each other
game is excluded. Read from ``admitted.json``, which that run writes; ``docs/openspiel.md``'s table
of every game is rendered from it here, so the two never disagree."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("admitted.json")
DOCS_BEGIN = "<!-- games table: written by python -m sdk.games.openspiel.admit from admitted.json -->"
DOCS_END = "<!-- end of games table -->"


@dataclass(frozen=True, slots=True)
class Admitted:
    """A game that passed: the least and most seats it passed at (the sizes between are not all
    played), and the parameters it is listed with."""

    min_players: int
    max_players: int
    params: dict[str, Any]


@cache
def admitted() -> dict[str, Admitted]:
    """The admitted games by OpenSpiel name."""
    data = json.loads(DATA.read_text())
    return {
        name: Admitted(min(entry["players"]), max(entry["players"]), dict(entry["params"]))
        for name, entry in data["admitted"].items()
    }


def table(data: dict[str, Any]) -> str:
    """The Markdown table of every game, admitted or excluded with its reason."""
    rows = ["| game | admitted | players passed | parameters | reason |", "| --- | --- | --- | --- | --- |"]
    names = sorted({*data["admitted"], *data["excluded"]})
    for name in names:
        if name in data["admitted"]:
            entry = data["admitted"][name]
            players = ", ".join(str(count) for count in entry["players"])
            params = ", ".join(f"`{key}: {json.dumps(value)}`" for key, value in entry["params"].items())
            limit = entry.get("not_above", "").replace("|", "\\|")
            rows.append(f"| `{name}` | yes | {players} | {params} | {limit} |")
        else:
            reason = data["excluded"][name].replace("|", "\\|")
            rows.append(f"| `{name}` | no | | | {reason} |")
    return "\n".join(rows)


def docs_section(data: dict[str, Any]) -> str:
    """The generated part of ``docs/openspiel.md``, markers included."""
    count = len(data["admitted"])
    total = count + len(data["excluded"])
    return f"{DOCS_BEGIN}\n{count} of {total} registered games admitted.\n\n{table(data)}\n{DOCS_END}"


def with_docs_section(text: str, data: dict[str, Any]) -> str:
    """``text`` (the doc) with its generated section replaced by one rendered from ``data``."""
    start, end = text.index(DOCS_BEGIN), text.index(DOCS_END) + len(DOCS_END)
    return text[:start] + docs_section(data) + text[end:]
