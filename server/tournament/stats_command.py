"""``smtourney stats``: who finished ahead of whom, and whether a seat wins more than its share."""

from __future__ import annotations

import json
from typing import Any

from rich.table import Table

from server.display import plain

from .commands import DEFAULT_DB, DbOption, JsonOption, TournamentOption, console, read_tournament
from .report import pairing_text, seat_verdict, statistics_json


def stats_command(
    db: DbOption = DEFAULT_DB, json_output: JsonOption = False, name: TournamentOption = None
) -> None:
    """Head-to-head matrix and seat advantage (95 % intervals, chi-square test of an even share)."""
    _, figures = read_tournament(db, name, statistics_json)
    if json_output:
        print(json.dumps(figures, indent=2))
        return
    console.print(_head_to_head_table(figures))
    for table in figures["seat_advantage"]:
        console.print(_seat_table(table))
        console.print(plain(seat_verdict(table)))


def _head_to_head_table(figures: dict[str, Any]) -> Table:
    table = Table(title="head to head: share of shared matches the row finished ahead of the column")
    table.add_column("")
    for name in figures["entrants"]:
        table.add_column(plain(name), justify="right")
    for name, row in zip(figures["entrants"], figures["head_to_head"], strict=True):
        table.add_row(plain(name), *(pairing_text(cell) for cell in row))
    return table


def _seat_table(figures: dict[str, Any]) -> Table:
    table = Table(
        title=f"seats at tables of {figures['players']} ({figures['matches']} matches without a forfeit)"
    )
    for column in ("seat", "wins", "win share", "95 %", "mean score", "95 %"):
        table.add_column(column, justify="right")
    for row in figures["seats"]:
        share_low, share_high = row["win_share_interval"]
        score_low, score_high = row["mean_score_interval"]
        table.add_row(
            str(row["seat"]),
            str(row["wins"]),
            f"{row['win_share']:.3f}",
            f"{share_low:.3f}-{share_high:.3f}",
            f"{row['mean_score']:.2f}",
            f"{score_low:.2f}-{score_high:.2f}",
        )
    return table
