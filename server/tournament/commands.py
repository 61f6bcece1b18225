"""``smtourney run``, ``standings`` and ``matches``: tournaments from the command line."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn
from rich.table import Table

from sdk.games.registry import get_game
from server.address import address_problem
from server.bounds import MAX_WORKERS
from server.display import plain, print_error, visible
from server.launcher import interrupt_on_sigterm, stop_all
from server.preflight import preflight
from server.store.database import StoreError
from server.store.location import Location, LocationError, parse_location
from server.store.models import Tournament
from server.store.repository import Store

from .bracket import Bracket, BracketError, load_bracket
from .csv_output import to_csv
from .executor import EXECUTORS, ExecutorChoice
from .forfeit_streaks import ForfeitStreaks, streaks_of
from .report import entrant_names, standing_rows
from .runner import Progress as MatchProgress
from .runner import TournamentError, run_tournament

_Read = TypeVar("_Read")

# Tables stay readable when piped (rich would assume 80 columns).
console = Console(width=None if sys.stdout.isatty() else 120)
DEFAULT_DB = "tournaments/demo.db"
DB_HELP = "a SQLite file, or postgresql://USER@HOST/DBNAME"

DbOption = Annotated[
    str, typer.Option("--db", help=f"Tournament database: {DB_HELP} (default: the demo's, {DEFAULT_DB}).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of a table.")]
CsvOption = Annotated[bool, typer.Option("--csv", help="Print CSV for spreadsheets instead of a table.")]
ExecutorOption = Annotated[
    str | None,
    typer.Option(
        help=f"Where matches are played: {' or '.join(EXECUTORS)} (default: from the bracket, else local)."
    ),
]
RayAddressOption = Annotated[
    str | None,
    typer.Option(
        help="HOST:PORT of the Ray cluster's head (implies --executor ray; "
        "default: a Ray instance of this run's own)."
    ),
]
TournamentOption = Annotated[
    str | None, typer.Option("--tournament", "-t", help="Tournament name, when the database holds several.")
]


def check_executor_options(executor: str | None, ray_address: str | None) -> None:
    """``--executor`` and ``--ray-address`` as given; a wrong one is one line and exit status 2."""
    if executor is not None and executor not in EXECUTORS:
        print_error(f"--executor must be one of: {', '.join(EXECUTORS)}; got {executor!r}")
        raise typer.Exit(2)
    if ray_address is not None and executor == "local":
        print_error("--ray-address needs --executor ray")
        raise typer.Exit(2)
    if ray_address is not None and (problem := address_problem(ray_address)) is not None:
        print_error(f"--ray-address: {problem}")
        raise typer.Exit(2)


def executor_choice(executor: str | None, ray_address: str | None, default: str) -> ExecutorChoice:
    """The executor the options ask for (checked by :func:`check_executor_options`), else ``default``."""
    name = executor or ("ray" if ray_address is not None else default)
    return ExecutorChoice("ray" if name == "ray" else "local", ray_address)


def run(
    bracket: Annotated[Path, typer.Argument(help="The bracket file (YAML).")],
    db: Annotated[
        str | None, typer.Option("--db", help=f"Database: {DB_HELP} (default: from the bracket).")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_WORKERS, help="Parallel matches (default: from the bracket)."),
    ] = None,
    executor: ExecutorOption = None,
    ray_address: RayAddressOption = None,
    allow_failing_entrants: Annotated[
        bool,
        typer.Option(
            "--allow-failing-entrants",
            help="Play on when an entrant fails the pre-flight check: its seats are all forfeited.",
        ),
    ] = False,
) -> None:
    """Play a tournament, or resume it: only matches the database lacks are played.

    Every launched entrant is first started once (all at the same time) and must pass its health
    check and Hello; one that fails stops the run before anything is written (exit 2).
    """
    check_executor_options(executor, ray_address)
    location = db_location(db) if db is not None else None
    try:
        spec = load_bracket(bracket)
    except BracketError as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None
    db_path = location or spec.database_path
    choice = executor_choice(executor, ray_address, spec.executor)
    interrupt_on_sigterm()
    view = _RunView(spec.name, [e.name for e in spec.entrants])
    try:
        withdrawn = _preflight(spec, allow_failing_entrants)
        tournament = run_tournament(
            spec,
            db_path,
            workers=workers or spec.workers,
            executor=choice,
            on_progress=view.on_progress,
            on_start=view.on_start,
            on_replay=view.on_replay,
            on_notice=view.on_notice,
            on_verdict=view.verdicts.append,
            withdrawn=withdrawn,
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


def _preflight(spec: Bracket, allow_failing: bool) -> dict[str, str]:
    """Start every launched entrant once; exit 2 on a failure, unless failing entrants are allowed,
    who are then withdrawn (name to reason)."""
    config = spec.referee_config()
    failures = preflight(
        get_game(spec.game),
        spec.seat_specs(),
        limits=config.limits,
        startup_timeout_s=config.startup_timeout_s,
    )
    for failure in failures:
        if allow_failing:
            print_error(f"{failure.line()}; its seats are forfeited", label="warning:", style="yellow")
        else:
            print_error(failure.line())
    if failures and not allow_failing:
        raise typer.Exit(2)
    return {failure.name: failure.reason for failure in failures}


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
            TextColumn("{task.fields[forfeiting]}", style="yellow", markup=False),
            console=console,
            transient=False,
        )
        self.title = visible(title)
        self.streaks = ForfeitStreaks(names)
        self.task: TaskID | None = None
        self.before = self.done = self.total = 0

    def on_start(self, done: int, total: int) -> None:
        self.before = self.done = done
        self.total = total
        self.progress.start()
        self.task = self.progress.add_task(
            self.title, total=total, completed=done, rate="", leader="-", status="", forfeiting=""
        )

    def on_progress(self, update: MatchProgress) -> None:
        assert self.task is not None
        self.done = update.done
        for seat, entrant in enumerate(update.match.seats):
            name = self.names[entrant]
            self.rank_sums[name] = self.rank_sums.get(name, 0) + update.record.ranks[seat]
            self.seats_played[name] = self.seats_played.get(name, 0) + 1
        self.streaks.add(update.match.seats, [seat.forfeited for seat in update.record.seats])
        forfeiting = self.streaks.forfeiting()
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
            forfeiting=f"forfeiting: {visible(', '.join(forfeiting))}" if forfeiting else "",
        )

    def on_replay(self, match_id: str, why: str) -> None:
        print_error(f"match {match_id} is played again: {why}", label="replay:", style="yellow")

    def on_notice(self, line: str) -> None:
        print_error(line, label="warning:", style="yellow")

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


def read_tournament(
    db: str, name: str | None, read: Callable[[Store, int], _Read]
) -> tuple[Tournament, _Read]:
    """The tournament ``name`` of ``db`` and what ``read(store, tournament_id)`` gives; exit 1 with
    one line when the database cannot be read."""
    store = open_store(db)
    try:
        tournament = _tournament(store, name)
        assert tournament.id is not None
        return tournament, read(store, tournament.id)
    except StoreError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None
    finally:
        store.close()


def _one_format(json_output: bool, csv_output: bool) -> None:
    if json_output and csv_output:
        print_error("choose one of --json and --csv")
        raise typer.Exit(2)


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


def _show_standings(db: Location, tournament: Tournament) -> None:
    store = open_store(db)
    try:
        assert tournament.id is not None
        rows = standing_rows(store, tournament.id)
        played = ((r.entrants, r.forfeited) for r in store.results(tournament.id))
        streaks = streaks_of(entrant_names(store, tournament.id), played)
    except StoreError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None
    finally:
        store.close()
    _print_standings(tournament, rows)
    for phrase in streaks.summary():
        print_error(phrase, label="forfeits:", style="yellow", out=console)


def _print_standings(tournament: Tournament, rows: list[dict[str, Any]]) -> None:
    table = Table(title=plain(f"{tournament.name} ({tournament.game}) standings"))
    placed = bool(rows) and "placing" in rows[0]
    for column in (
        *(("placing",) if placed else ()),
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
        "rank 95 %",
    ):
        table.add_column(column, justify="left" if column in ("name", "placing") else "right")
    decimals = _mean_score_decimals(rows)
    for s in rows:
        low, high = s["rank_interval"]
        table.add_row(
            *((s["placing"],) if placed else ()),
            str(s["rank"]),
            plain(s["name"]),
            f"{s['mu']:.2f}",
            f"{s['sigma']:.2f}",
            f"{s['conservative']:.2f}",
            str(s["matches"]),
            str(s["wins"]),
            f"{s['mean_score']:.{decimals}f}",
            str(s["strikes"]),
            str(s["forfeits"]),
            f"{low}-{high}",
        )
    console.print(table)
    console.print(_conduct_table(rows))


def _mean_score_decimals(rows: list[dict[str, Any]]) -> int:
    """Decimals for the mean score column: one, as points are read, or enough to give the largest
    mean three significant digits where scores are small (skat's game value over 120 showed
    ``-0.0``)."""
    largest = max((abs(s["mean_score"]) for s in rows), default=0.0)
    return 1 if largest == 0 else max(1, 2 - math.floor(math.log10(largest)))


def _conduct_table(rows: list[dict[str, Any]]) -> Table:
    """Decision times, time bank used per match and faults by kind, in standings order."""
    table = Table(title="decision times (ms), time bank used per match (ms), faults")
    columns = ("name", "median", "p99", "max", "bank mean", "bank max", "faults")
    for column in columns:
        table.add_column(column, justify="left" if column in ("name", "faults") else "right")
    for s in rows:
        times, bank = s["decision_ms"], s["bank_used_ms"]
        table.add_row(
            plain(s["name"]),
            *(_ms(times[key]) for key in ("median", "p99", "max")),
            *(_ms(bank[key]) for key in ("mean", "max")),
            plain(_faults_text(s["faults"]) or "-"),
        )
    return table


def _faults_text(faults: dict[str, int]) -> str:
    """``timeout 2, forfeit 1``: one cell for every kind of fault."""
    return ", ".join(f"{kind} {count}" for kind, count in faults.items())


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def standings_command(
    db: DbOption = DEFAULT_DB,
    json_output: JsonOption = False,
    csv_output: CsvOption = False,
    name: TournamentOption = None,
    stage: StageOption = None,
) -> None:
    """The standings: TrueSkill ratings applied in schedule order, 95 % rank intervals, decision
    times, time bank used and faults (of one stage's matches with ``--stage``)."""
    _one_format(json_output, csv_output)
    tournament, rows = read_tournament(db, name, lambda store, tid: standing_rows(store, tid, stage))
    if stage is not None and not rows:
        print_error(f"{db}: no match of a stage named {stage!r} in {tournament.name!r}")
        raise typer.Exit(1)
    if json_output:
        print(json.dumps(rows, indent=2))
    elif csv_output:
        print(to_csv([{**row, "faults": _faults_text(row["faults"])} for row in rows]), end="")
    else:
        _print_standings(tournament, rows)


def matches_command(
    db: DbOption = DEFAULT_DB,
    json_output: JsonOption = False,
    csv_output: CsvOption = False,
    name: TournamentOption = None,
) -> None:
    """The finished matches, in schedule order (CSV: one line per seat)."""
    _one_format(json_output, csv_output)
    tournament, rows = read_tournament(db, name, _match_rows)
    if json_output:
        print(json.dumps(rows, indent=2))
        return
    if csv_output:
        print(to_csv([{**_without_seats(row), **seat} for row in rows for seat in row["seats"]]), end="")
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


def _without_seats(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key != "seats"}


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
