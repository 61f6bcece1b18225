"""``smtourney ladder ...``: the organiser's commands, and the service itself."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from server.bounds import MAX_WORKERS
from server.display import plain, print_error
from server.launcher import interrupt_on_sigterm, stop_all
from server.sandbox import sweep_leftovers
from server.store.database import StoreError
from server.store.location import Location
from server.store.repository import Store
from server.store.retry import OutageNotice
from server.tournament.bracket_errors import BracketError
from server.tournament.commands import (
    DB_HELP,
    ExecutorOption,
    RayAddressOption,
    check_executor_options,
    db_location,
    executor_choice,
)
from server.tournament.executor import ExecutorError
from server.web.command import listen

from .client import ClientError, get_json
from .config import Ladder, load_ladder
from .loop import WAITING, LadderLoop
from .programs import Programs, default_data_dir
from .store import LadderError, LadderStore
from .validators import ValidationPool

__all__ = ["ladder_app"]

ladder_app = typer.Typer(help="Run a ladder that bots join over time.", no_args_is_help=True)
console = Console(highlight=False, soft_wrap=True)

_T = TypeVar("_T")

DbOption = Annotated[str, typer.Option("--db", help=f"The ladder's database: {DB_HELP}.")]
NameArgument = Annotated[str, typer.Argument(help="The participant's name.")]
ServerOption = Annotated[str, typer.Option("--server", help="The ladder's URL, e.g. http://HOST:PORT.")]
LadderFileArgument = Annotated[Path, typer.Argument(metavar="LADDER.yaml", help="The ladder file.")]
LadderDbOption = Annotated[
    str | None, typer.Option("--db", help=f"Database: {DB_HELP} (default: from the ladder file).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of a table.")]


@contextmanager
def _ladder_store(location: Location, *, create: bool = False) -> Iterator[LadderStore]:
    """The ladder in ``location``; exit 1 with one line if the database cannot be used."""
    try:
        store = Store.open(location, create=create)
    except StoreError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None
    try:
        yield LadderStore(store)
    finally:
        store.close()


def _change(db: str, change: Callable[[LadderStore], _T], *, create: bool = False) -> _T:
    """Apply ``change`` to the ladder in ``db``; a refused change is one line and exit 1."""
    with _ladder_store(db_location(db), create=create) as ladder:
        try:
            return change(ladder)
        except LadderError as exc:
            print_error(str(exc))
            raise typer.Exit(1) from None


@ladder_app.command("add-participant")
def add_participant(name: NameArgument, db: DbOption) -> None:
    """Register a participant and print their token, once: only its hash is kept."""
    token = _change(db, lambda ladder: ladder.add_participant(name), create=True)
    console.print(plain(f"participant {name} added; their token, shown only now:"))
    print(token)


@ladder_app.command("rotate-token")
def rotate_token(name: NameArgument, db: DbOption) -> None:
    """Replace a participant's token (one that leaked): the old one stops working at once."""
    token = _change(db, lambda ladder: ladder.rotate_token(name))
    console.print(plain(f"participant {name} has a new token, shown only now (the old one no longer works):"))
    print(token)


@ladder_app.command("remove-participant")
def remove_participant(name: NameArgument, db: DbOption) -> None:
    """Remove a participant: their token stops working and their bots are retired."""
    retired = _change(db, lambda ladder: ladder.remove_participant(name))
    console.print(plain(f"participant {name} removed; {retired} bot(s) retired"))


@ladder_app.command("pause")
def pause(name: NameArgument, db: DbOption) -> None:
    """Stop scheduling a participant's bots and taking their submissions, until resumed."""
    _change(db, lambda ladder: ladder.set_paused(name, True))
    console.print(plain(f"participant {name} paused"))


@ladder_app.command("resume")
def resume(name: NameArgument, db: DbOption) -> None:
    """Schedule a paused participant's bots and take their submissions again."""
    _change(db, lambda ladder: ladder.set_paused(name, False))
    console.print(plain(f"participant {name} resumed"))


@ladder_app.command("retire")
def retire(bot: Annotated[str, typer.Argument(help="The bot, as PARTICIPANT/BOT.")], db: DbOption) -> None:
    """Retire a bot: it is no longer scheduled, and keeps its place in the history."""
    _change(db, lambda ladder: ladder.retire(bot))
    console.print(plain(f"bot {bot} retired"))


@ladder_app.command("serve")
def serve(
    ladder_file: LadderFileArgument,
    db: LadderDbOption = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to listen on (0: pick a free one).")
    ] = 8100,
    log_dir: Annotated[
        Path, typer.Option(help="Where the logs of bot checks, bots and workers are written.")
    ] = Path("logs"),
    workers: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_WORKERS, help="Matches played at once (default: from the ladder file)."),
    ] = None,
    executor: ExecutorOption = None,
    ray_address: RayAddressOption = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Where submitted programs are unpacked (default: <database stem>-data beside the "
            "SQLite file, or beside the ladder file's default database for PostgreSQL)."
        ),
    ] = None,
) -> None:
    """Serve the competition API of a ladder and play its matches, resuming those a previous run
    left unfinished."""
    # Imported here so that the other commands do not pay for loading the web stack.
    import uvicorn

    from .api import create_app

    check_executor_options(executor, ray_address)
    sweep_leftovers()  # of a run that was killed, even if no bot is launched in this one
    ladder, location = _ladder_file(ladder_file, db)
    if data_dir is None:
        data_dir = default_data_dir(location if isinstance(location, Path) else ladder.database_path)
    # The loop and the validations have a database engine of their own: a burst of API requests
    # (each its own thread) then waits for the API's connections, never for the loop's.
    with _ladder_store(location, create=True) as store, _ladder_store(location) as playing:
        app = create_app(ladder, store, data_dir=data_dir, log_dir=log_dir)
        try:
            sock = listen(host, port)
        except OSError as exc:
            print_error(f"cannot listen on {host} port {port}: {exc.strerror or exc}")
            raise typer.Exit(1) from None
        shown = f"[{host}]" if ":" in host else host
        root = f"http://{shown}:{sock.getsockname()[1]}"
        console.print(
            plain(
                f"ladder {ladder.name} at {root}/api/ladder/, leaderboard at {root}/ladder  (Ctrl-C to stop)"
            )
        )
        # One line when an outage begins and one when it ends, whichever thread meets it.
        outage = OutageNotice(lambda line: print_error(line, label="warning:", style="yellow"), WAITING)
        validator = ValidationPool(
            playing, ladder, log_dir, Programs(data_dir), report=print_error, outage=outage
        )
        loop = LadderLoop(
            ladder,
            playing,
            workers=workers or ladder.matchmaking.workers,
            executor=executor_choice(executor, ray_address, "local"),
            log_dir=log_dir.absolute(),
            report=print_error,
            outage=outage,
        )
        try:
            loop.start()
        except ExecutorError as exc:
            print_error(str(exc))
            raise typer.Exit(1) from None
        validator.start()
        # uvicorn answers SIGTERM by stopping and then raising it again once its own handler is gone:
        # ours then unwinds like Ctrl-C, so the workers and every bot are stopped and cleaned up.
        interrupt_on_sigterm()
        try:
            uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
        except KeyboardInterrupt:
            pass
        finally:
            loop.stop()
            validator.stop()
            stop_all()


def _fetch(server: str, path: str, token: str | None = None) -> list[dict[str, object]]:
    try:
        reply = get_json(server, path, token)
    except ClientError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None
    if not isinstance(reply, list):
        print_error(f"{server}: unexpected reply; is this a smtourney ladder?")
        raise typer.Exit(1)
    return reply


def _print_bots(rows: list[dict[str, object]], json_output: bool, title: str, *, rank: bool) -> None:
    if json_output:
        print(json.dumps(rows, indent=1))
        return
    table = Table(title=title)
    for column in (["#"] if rank else []) + [
        "bot",
        "participant",
        "status",
        "games",
        "mu",
        "sigma",
        "95 % interval",
        "last game",
        "reason",
    ]:
        # Folded, never cut: two long names cut to the same "greed…" would read as one bot.
        table.add_column(column, overflow="fold")
    for place, row in enumerate(rows, start=1):
        mu, sigma = row.get("mu"), row.get("sigma")
        cells = [row.get(key) for key in ("name", "participant", "status", "games")]
        cells += [_two_places(mu), _two_places(sigma), _interval(row.get("interval"))]
        cells += [str(row.get("last_game_at") or "")[:16].replace("T", " "), row.get("reason") or ""]
        table.add_row(*([plain(place)] if rank else []), *(plain(cell) for cell in cells))
    console.print(table)


@ladder_app.command("leaderboard")
def leaderboard(server: ServerOption, json_output: JsonOption = False) -> None:
    """The public leaderboard of a running ladder, best first."""
    _print_bots(_fetch(server, "leaderboard"), json_output, "leaderboard", rank=True)


@ladder_app.command("status")
def status(
    server: ServerOption,
    token: Annotated[str, typer.Option("--token", help="Your participant token.", envvar="SMTOURNEY_TOKEN")],
    json_output: JsonOption = False,
) -> None:
    """Your bots on a running ladder and their status."""
    _print_bots(_fetch(server, "bots", token), json_output, "your bots", rank=False)


def _interval(value: object) -> str:
    """``[low, high]`` as ``low-high`` to one place; blank from a server that does not send it."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(end, int | float) for end in value):
        return f"{value[0]:.1f}-{value[1]:.1f}"
    return ""


def _two_places(value: object) -> str:
    return f"{value:.2f}" if isinstance(value, int | float) else str(value)


@ladder_app.command("recompute")
def recompute_command(
    ladder_file: LadderFileArgument,
    db: LadderDbOption = None,
    json_output: JsonOption = False,
) -> None:
    """Recompute every bot's rating from the stored matches and decisions alone, and check the stored
    ones against it (exit status 1 if they differ)."""
    from .snapshot import snapshot
    from .standings import recompute

    ladder, location = _ladder_file(ladder_file, db)
    with _ladder_store(location) as running, snapshot(running.store) as frozen:  # one moment's data
        store = LadderStore(frozen)
        replay = recompute(store, ladder.initial_rating)
        names = {row.id: f"{row.participant}/{row.name}" for row in store.bots()}
    rows = [
        {"bot": names[bot.bot_id], "mu": bot.mu, "sigma": bot.sigma, "games": bot.games}
        for bot in replay.bots.values()
    ]
    if json_output:
        print(json.dumps({"bots": rows, "problems": replay.problems}, indent=1))
    else:
        table = Table(title="recomputed ratings")
        for column in ("bot", "mu", "sigma", "games"):
            table.add_column(column)
        for row in rows:
            mu, sigma = _two_places(row["mu"]), _two_places(row["sigma"])
            table.add_row(plain(row["bot"]), plain(mu), plain(sigma), plain(row["games"]))
        console.print(table)
        for problem in replay.problems:
            print_error(problem)
        if not replay.problems:
            console.print(plain("the stored ratings, games and decisions agree with the replay"))
    if replay.problems:
        raise typer.Exit(1)


def _ladder_file(ladder_file: Path, db: str | None) -> tuple[Ladder, Location]:
    """The ladder and its database (``--db``, else the file's); a bad file is one line, exit 2."""
    try:
        ladder = load_ladder(ladder_file)
    except BracketError as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None
    return ladder, db_location(db) if db is not None else ladder.database_path
