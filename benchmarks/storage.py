"""Storage per match: how many bytes a stored match takes in a SQLite database, for each installed game's
example bracket, and for the games the trivial bot plays played by trivial bots.

    python benchmarks/storage.py [--game NAME] [--rounds N] [--workers 2] [--json]

A game's example bracket is ``tournaments/<game>.yaml``, else the first bracket of ``tournaments/`` for
that game, else one table of the game's demonstration seats (``demo_seats``) for three rounds. Each is
played as it is (``--rounds`` shortens it) into a fresh SQLite file, then vacuumed. Counted are the
tables and indexes that grow with matches (all but the tournament, its entrants and the schema row), as
SQLite's ``dbstat`` sees them, divided by the matches stored: "pages" are the whole pages they take
(with a dozen matches, each small table or index still fills most of one page, counted in full), "data"
the bytes those pages actually hold (what a table takes per match once a large database has filled its
pages). The whole file's size per match is printed too.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from benchmarks.trivial_bot import TrivialBot
from sdk.games.registry import games, get_game
from server.tournament.bracket import load_bracket
from server.tournament.runner import run_tournament, schedule_of

EXAMPLES = Path(__file__).resolve().parent.parent / "tournaments"
TRIVIAL_BOT = "python -m benchmarks.trivial_bot"
_FIXED_TABLES = {"sqlite_schema", "schema_info", "tournament", "entrant"}


@dataclass(frozen=True, slots=True)
class Size:
    matches: int
    page_bytes: int  # the pages of every table and index that grows with matches
    data_bytes: int  # the bytes in use on those pages
    file_bytes: int

    def to_json(self) -> dict[str, float]:
        return {
            "matches": self.matches,
            "kb_per_match": self.page_bytes / self.matches / 1000,
            "data_kb_per_match": self.data_bytes / self.matches / 1000,
            "file_kb_per_match": self.file_bytes / self.matches / 1000,
        }


def example_bracket(game: str) -> dict[str, Any]:
    """The bracket that shows ``game`` (see the module's docstring), as data."""
    own = EXAMPLES / f"{game}.yaml"
    for path in [own, *sorted(EXAMPLES.glob("*.yaml"))]:
        data = yaml.safe_load(path.read_text()) if path.is_file() else None
        if isinstance(data, dict) and data.get("game") == game and "entrants" in data:
            return data
    seats = get_game(game).demo_seats
    return {
        "name": f"{game} storage",
        "game": game,
        "players": len(seats),
        "rounds": 3,
        "seed": 1,
        "entrants": [{"name": f"seat-{n}", "command": command} for n, command in enumerate(seats)],
    }


def cases(only: str | None) -> dict[str, tuple[dict[str, Any], str | None]]:
    """Label -> (bracket, entrants' command or None for the bracket's own), for every installed game."""
    found: dict[str, tuple[dict[str, Any], str | None]] = {}
    for game in [only] if only else sorted(games()):
        bracket = example_bracket(game)
        if game in TrivialBot.games:
            found[f"{game} (trivial bots)"] = (bracket, TRIVIAL_BOT)
        found[game] = (bracket, None)
    return found


def _bracket(
    folder: Path, data: dict[str, Any], command: str | None, rounds: int | None, workers: int
) -> Path:
    data = {**data, "workers": workers}
    if rounds is not None:
        data["rounds"] = rounds
    if command is not None:
        data["entrants"] = [{"name": e["name"], "command": command} for e in data["entrants"]]
    path = folder / "bracket.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def measure(db: Path, matches: int) -> Size:
    """Bytes per match of ``db``, once it is vacuumed."""
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("VACUUM")
        owners = dict(connection.execute("SELECT name, tbl_name FROM sqlite_schema WHERE tbl_name != ''"))
        pages = connection.execute("SELECT name, SUM(pgsize), SUM(pgsize - unused) FROM dbstat GROUP BY name")
        grows = [(size, used) for name, size, used in pages if owners.get(name, name) not in _FIXED_TABLES]
    return Size(matches, sum(size for size, _ in grows), sum(used for _, used in grows), db.stat().st_size)


def play(example: dict[str, Any], command: str | None, rounds: int | None, workers: int) -> Size:
    with tempfile.TemporaryDirectory() as tmp:
        bracket = load_bracket(_bracket(Path(tmp), example, command, rounds, workers))
        db = Path(tmp) / "storage.db"
        run_tournament(bracket, db, workers=workers)
        return measure(db, len(schedule_of(bracket)))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--game", choices=sorted(games()), help="only this installed game (default: every one)"
    )
    parser.add_argument("--rounds", type=int, default=None, help="rounds of each bracket (default: its own)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    sizes = {
        name: play(example, command, args.rounds, args.workers)
        for name, (example, command) in cases(args.game).items()
    }
    if args.json:
        print(json.dumps({name: size.to_json() for name, size in sizes.items()}))
        return
    print("game                        matches   KB/match (pages)   KB/match (data)   file KB/match")
    for name, size in sizes.items():
        figures = size.to_json()
        print(
            f"{name:27} {size.matches:7} {figures['kb_per_match']:18.1f} "
            f"{figures['data_kb_per_match']:17.1f} {figures['file_kb_per_match']:15.1f}"
        )


if __name__ == "__main__":
    main()
