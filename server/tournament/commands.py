"""``smtourney run``, ``standings`` and ``matches``: tournaments from the command line."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn
from rich.table import Table

from server.address import address_problem
from server.bounds import MAX_WORKERS
from server.display import plain, print_error, visible
from server.launcher import interrupt_on_sigterm, stop_all
from server.store.database import StoreError
from server.store.location import Location, LocationError, parse_location
from server.store.models import Tournament
from server.store.repository import Store

from .bracket import BracketError, load_bracket
from .executor import EXECUTORS, ExecutorChoice
from .ratings import Standing, standings
from .runner import Progress as MatchProgress
from .runner import TournamentError, run_tournament

# Tables stay readable when piped (rich would assume 80 columns).
console = Console(width=None if sys.stdout.isatty() else 120)
DEFAULT_DB = "tournaments/demo.db"
DB_HELP = "a SQLite file, or postgresql://USER@HOST/DBNAME"

DbOption = Annotated[
    str, typer.Option("--db", help=f"Tournament database: {DB_HELP} (default: the demo's, {DEFAULT_DB}).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of a table.")]
TournamentOption = Annotated[
    str | None, typer.Option("--tournament", "-t", help="Tournament name, when the database holds several.")
]


def run(
    bracket: Annotated[Path, typer.Argument(help="The bracket file (YAML).")],
    db: Annotated[
        str | None, typer.Option("--db", help=f"Database: {DB_HELP} (default: from the bracket).")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_WORKERS, help="Parallel matches (default: from the bracket)."),
    ] = None,
    executor: Annotated[
        str | None,
        typer.Option(
            help=f"Where matches are played: {' or '.join(EXECUTORS)} "
            "(default: from the bracket, else local)."
        ),
    ] = None,
    ray_address: Annotated[
        str | None,
        typer.Option(
            help="HOST:PORT of the Ray cluster's head (implies --executor ray; "
            "default: a Ray instance of this run's own)."
        ),
    ] = None,
) -> None:
    """Play a tournament, or resume it: only matches the database lacks are played."""
    if executor is not None and executor not in EXECUTORS:
        print_error(f"--executor must be one of: {', '.join(EXECUTORS)}; got {executor!r}")
        raise typer.Exit(2)
    if ray_address is not None and executor == "local":
        print_error("--ray-address needs --executor ray")
        raise typer.Exit(2)
    if ray_address is not None and (problem := address_problem(ray_address)) is not None:
        print_error(f"--ray-address: {problem}")
        raise typer.Exit(2)
    location = db_location(db) if db is not None else None
    try:
        spec = load_bracket(bracket)
    except BracketError as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None
    db_path = location or spec.database_path
    name = executor or ("ray" if ray_address is not None else spec.executor)
    choice = ExecutorChoice("ray" if name == "ray" else "local", ray_address)
    interrupt_on_sigterm()
    view = _RunView(spec.name, [e.name for e in spec.entrants])
    try:
        tournament = run_tournament(
            spec,
            db_path,
            workers=workers or spec.workers,
            executor=choice,
            on_progress=view.on_progress,
            on_start=view.on_start,
            on_replay=view.on_replay,
            on_verdict=view.verdicts.append,
        )
    except KeyboardInterrupt:
        stop_all()
        view.stop()
        print_error(
            f"{view.stored_text(db_path)}; every bot was stopped. Run the same command again to resume.",
            label="interrupted:",
            style="yellow",
        )
        raise typer.Exit(130) from None
    except StoreError as exc:
        view.stop()
        print_error(str(exc))
        raise typer.Exit(1) from None
    except TournamentError as exc:
        view.stop()
        print_error(f"{db_path}: {exc}")
        raise typer.Exit(1) from None
    view.stop()
    _show_standings(db_path, tournament)
    for line in view.verdicts:
        console.print(plain(line))


class _RunView:
    """The progress line of a run: shown once the database is open and the work known."""

    def __init__(self, title: str, names: list[str]) -> None:
        self.names = names
        self.verdicts: list[str] = []
        # Running sums, so an update costs the same after a thousand matches as after one.
        self.rank_sums: dict[str, int] = {}
        self.seats_played: dict[str, int] = {}
        self.progress = Progress(
            # Names are user text: shown literally (markup=False), made visible() when set.
            TextColumn("{task.description}", style="bold", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}", markup=False),
            TimeRemainingColumn(),
            TextColumn("leader: {task.fields[leader]}", markup=False),
            TextColumn("{task.fields[status]}", markup=False),
            console=console,
            transient=False,
        )
        self.title = visible(title)
        self.task: TaskID | None = None
        self.before = self.done = self.total = 0

    def on_start(self, done: int, total: int) -> None:
        self.before = self.done = done
        self.total = total
        self.progress.start()
        self.task = self.progress.add_task(
            self.title, total=total, completed=done, rate="", leader="-", status=""
        )

    def on_progress(self, update: MatchProgress) -> None:
        assert self.task is not None
        self.done = update.done
        for seat, entrant in enumerate(update.match.seats):
            name = self.names[entrant]
            self.rank_sums[name] = self.rank_sums.get(name, 0) + update.record.ranks[seat]
            self.seats_played[name] = self.seats_played.get(name, 0) + 1
        leader = min(self.seats_played, key=lambda n: (self.rank_sums[n] / self.seats_played[n], n))
        elapsed = self.progress.tasks[self.task].elapsed or 0.0
        rate = f"{60 * (update.done - self.before) / elapsed:.1f} matches/min" if elapsed > 0 else ""
        self.progress.update(
            self.task,
            total=update.total,
            completed=update.done,
            rate=rate,
            leader=f"{visible(leader)} (mean rank)",
            status=visible(update.status),
        )

    def on_replay(self, match_id: str, why: str) -> None:
        print_error(f"match {match_id} is played again: {why}", label="replay:", style="yellow")

    def stored_text(self, db_path: Location) -> str:
        """How much is stored, for a run that stops early."""
        if self.task is None:
            return "no match was played"
        return f"{self.done} of {self.total} matches are stored in {db_path}"

    def stop(self) -> None:
        if self.task is not None:  # a progress display never started would still print a line
            self.progress.stop()


def db_location(db: str | Location) -> Location:
    """``--db`` as a file or a PostgreSQL URL, or exit 2 with one line saying what is wrong."""
    try:
        return parse_location(db)
    except LocationError as exc:
        print_error(f"--db: {exc}")
        raise typer.Exit(2) from None


def open_store(db: str | Location) -> Store:
    """The database ``db`` names, or exit 1 with one line saying why it cannot be used."""
    try:
        return Store.open(db_location(db))
    except StoreError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None


def _tournament(store: Store, name: str | None) -> Tournament:
    tournament = store.tournament(name)
    if tournament is None:
        what = f"no tournament named {name!r}" if name else "no tournament"
        print_error(f"{store.path}: {what}")
        raise typer.Exit(1)
    return tournament


StageOption = Annotated[
    str | None,
    typer.Option("--stage", help="Standings of one stage of a bracket with stages (its matches only)."),
]


def compute_standings(store: Store, tournament: Tournament, stage: str | None = None) -> list[Standing]:
    """The standings over every match, or over the matches of ``stage`` among those who played it."""
    assert tournament.id is not None
    names = [e.name for e in store.entrants(tournament.id)]
    results = store.results(tournament.id)
    if stage is None:
        return standings(names, results)
    mine = [r for r in results if r.match_id.startswith(f"{stage}.")]
    if not mine:
        print_error(f"{store.path}: no match of a stage named {stage!r} in {tournament.name!r}")
        raise typer.Exit(1)
    rows = [row for row in standings(names, mine) if row.matches]
    return [replace(row, rank=place) for place, row in enumerate(rows, start=1)]


def _show_standings(db: Location, tournament: Tournament) -> None:
    store = open_store(db)
    try:
        rows = compute_standings(store, tournament)
    except StoreError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None
    finally:
        store.close()
    _print_standings(tournament, rows)


def _print_standings(tournament: Tournament, rows: list[Standing]) -> None:
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
    db: DbOption = DEFAULT_DB,
    json_output: JsonOption = False,
    name: TournamentOption = None,
    stage: StageOption = None,
) -> None:
    """The standings: TrueSkill ratings applied in schedule order."""
    store = open_store(db)
    try:
        tournament = _tournament(store, name)
        rows = compute_standings(store, tournament, stage)
    except StoreError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None
    finally:
        store.close()
    if json_output:
        print(json.dumps([s.to_json() for s in rows], indent=2))
        return
    _print_standings(tournament, rows)


def matches_command(
    db: DbOption = DEFAULT_DB, json_output: JsonOption = False, name: TournamentOption = None
) -> None:
    """The finished matches, in schedule order."""
    store = open_store(db)
    try:
        tournament = _tournament(store, name)
        assert tournament.id is not None
        rows = _match_rows(store, tournament.id)
    except StoreError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None
    finally:
        store.close()
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


def _match_rows(store: Store, tournament_id: int) -> list[dict[str, Any]]:
    """Every finished match as plain data, each seat with its faults."""
    names = {e.id: e.name for e in store.entrants(tournament_id)}
    return [
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
                    "forfeit_reason": s.forfeit_reason,
                    "faults": store.faults(s, match.match_id),
                }
                for s in seats
            ],
        }
        for match, seats in store.matches(tournament_id)
    ]
