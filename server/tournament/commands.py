"""``smtourney run``, ``standings`` and ``matches``: tournaments from the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from server.bounds import MAX_WORKERS
from server.display import plain, print_error, visible
from server.launcher import interrupt_on_sigterm, stop_all
from server.store.database import StoreError
from server.store.models import Tournament
from server.store.repository import Store

from .bracket import BracketError, load_bracket
from .ratings import Standing, standings
from .runner import Progress as MatchProgress
from .runner import TournamentError, run_tournament

# Tables stay readable when piped (rich would assume 80 columns).
console = Console(width=None if sys.stdout.isatty() else 120)
DEFAULT_DB = Path("tournaments/demo.db")

DbOption = Annotated[
    Path, typer.Option("--db", help="Tournament database (default: the demo's, tournaments/demo.db).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of a table.")]
TournamentOption = Annotated[
    str | None, typer.Option("--tournament", "-t", help="Tournament name, when the database holds several.")
]


def run(
    bracket: Annotated[Path, typer.Argument(help="The bracket file (YAML).")],
    db: Annotated[Path | None, typer.Option("--db", help="Database (default: from the bracket).")] = None,
    workers: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_WORKERS, help="Parallel matches (default: from the bracket)."),
    ] = None,
) -> None:
    """Play a tournament, or resume it: only matches the database lacks are played."""
    try:
        spec = load_bracket(bracket)
    except BracketError as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None
    db_path = db or spec.database_path
    interrupt_on_sigterm()
    names = [e.name for e in spec.entrants]
    mean_ranks: dict[str, list[int]] = {name: [] for name in names}
    columns = (
        # Names are user text: shown literally (markup=False), made visible() when set.
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}", markup=False),
        TimeRemainingColumn(),
        TextColumn("leader: {task.fields[leader]}", markup=False),
    )
    stored = [0, 0, 0]  # stored now, total, stored before this run
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(visible(spec.name), total=None, rate="", leader="-")

        def on_start(done: int, total: int) -> None:
            stored[:] = [done, total, done]
            progress.update(task, total=total, completed=done)

        def on_progress(update: MatchProgress) -> None:
            stored[0] = update.done
            for seat, entrant in enumerate(update.match.seats):
                mean_ranks[names[entrant]].append(update.record.ranks[seat])
            played = {n: r for n, r in mean_ranks.items() if r}
            leader = min(played, key=lambda n: (sum(played[n]) / len(played[n]), n))
            elapsed = progress.tasks[task].elapsed or 0.0
            rate = f"{60 * (update.done - stored[2]) / elapsed:.1f} matches/min" if elapsed > 0 else ""
            progress.update(task, completed=update.done, rate=rate, leader=f"{visible(leader)} (mean rank)")

        try:
            tournament = run_tournament(
                spec, db_path, workers=workers or spec.workers, on_progress=on_progress, on_start=on_start
            )
        except KeyboardInterrupt:
            stop_all()
            progress.stop()
            print_error(
                f"{stored[0]} of {stored[1]} matches are stored in {db_path}; "
                "every bot was stopped. Run the same command again to resume.",
                label="interrupted:",
                style="yellow",
            )
            raise typer.Exit(130) from None
        except (StoreError, TournamentError) as exc:
            print_error(f"{db_path}: {exc}")
            raise typer.Exit(1) from None
    _show_standings(db_path, tournament)


def open_store(db: Path) -> Store:
    """The database at ``db``, or exit 1 with one line saying why it cannot be used."""
    try:
        return Store.open(db)
    except StoreError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None


def _tournament(store: Store, name: str | None, db: Path) -> Tournament:
    tournament = store.tournament(name)
    if tournament is None:
        what = f"no tournament named {name!r}" if name else "no tournament"
        print_error(f"{db}: {what}")
        raise typer.Exit(1)
    return tournament


def compute_standings(store: Store, tournament: Tournament) -> list[Standing]:
    assert tournament.id is not None
    names = [e.name for e in store.entrants(tournament.id)]
    return standings(names, store.results(tournament.id))


def _show_standings(db: Path, tournament: Tournament) -> None:
    store = open_store(db)
    try:
        rows = compute_standings(store, tournament)
    finally:
        store.close()
    table = Table(title=plain(f"{tournament.name} ({tournament.game}) standings"))
    for column in (
        "rank",
        "name",
        "mu",
        "sigma",
        "conservative",
        "matches",
        "wins",
        "mean score",
        "strikes",
        "forfeits",
    ):
        table.add_column(column, justify="left" if column == "name" else "right")
    for s in rows:
        table.add_row(
            str(s.rank),
            plain(s.name),
            f"{s.mu:.2f}",
            f"{s.sigma:.2f}",
            f"{s.conservative:.2f}",
            str(s.matches),
            str(s.wins),
            f"{s.mean_score:.1f}",
            str(s.strikes),
            str(s.forfeits),
        )
    console.print(table)


def standings_command(
    db: DbOption = DEFAULT_DB, json_output: JsonOption = False, name: TournamentOption = None
) -> None:
    """The standings: TrueSkill ratings applied in schedule order."""
    store = open_store(db)
    try:
        tournament = _tournament(store, name, db)
        if json_output:
            print(json.dumps([s.to_json() for s in compute_standings(store, tournament)], indent=2))
            return
    finally:
        store.close()
    _show_standings(db, tournament)


def matches_command(
    db: DbOption = DEFAULT_DB, json_output: JsonOption = False, name: TournamentOption = None
) -> None:
    """The finished matches, in schedule order."""
    store = open_store(db)
    try:
        tournament = _tournament(store, name, db)
        assert tournament.id is not None
        names = {e.id: e.name for e in store.entrants(tournament.id)}
        matches = store.matches(tournament.id)
    finally:
        store.close()
    rows = [
        {
            "match_id": match.match_id,
            "index": match.index,
            "round": match.round,
            "table": match.table_no,
            "rotation": match.rotation,
            "seed": match.seed,
            "end_reason": match.end_reason,
            "duration_s": round(match.duration_s, 3),
            "seats": [
                {
                    "seat": s.seat,
                    "name": names[s.entrant_id],
                    "score": s.score,
                    "rank": s.rank,
                    "strikes": s.strikes,
                    "forfeited": s.forfeited,
                }
                for s in seats
            ],
        }
        for match, seats in matches
    ]
    if json_output:
        print(json.dumps(rows, indent=2))
        return
    table = Table(title=plain(f"{tournament.name}: {len(rows)} finished matches"))
    for column in ("match", "round", "seats (score, rank)", "strikes", "time"):
        table.add_column(column)
    for row in rows:
        seats = row["seats"]
        assert isinstance(seats, list)
        table.add_row(
            plain(row["match_id"]),
            str(row["round"]),
            plain(", ".join(f"{s['name']} ({s['score']}, #{s['rank']})" for s in seats)),
            str(sum(s["strikes"] for s in seats)),
            f"{row['duration_s']:.1f} s",
        )
    console.print(table)
