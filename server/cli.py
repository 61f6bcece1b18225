"""The ``smtourney`` command line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.live import Live
from rich.table import Table
from rich.text import Text

from sdk.games.plugin import GamePlugin, GameState
from sdk.games.registry import declared_but_not_installed, listed_games
from sdk.serve import PORT_ENV
from sdk.serve import run as serve_bot

from .bot_check import check_bot
from .bounds import MAX_DECISION_MS, MAX_PORT, MAX_SEED
from .clock_options import BankMs, DecisionMs, Strikes, referee_config
from .display import plain, print_error, visible
from .duel_command import duel
from .inprocess import BotClassError, load_bot_class
from .ladder.commands import ladder_app
from .ladder.submit_command import submit
from .launcher import interrupt_on_sigterm, stop_all
from .play_args import (
    ArgumentError,
    check_listen,
    check_output_file,
    game_plugin,
    log_folder,
    port_from_env,
    seat_specs,
)
from .preflight import preflight
from .record import MatchRecord, StepRecord
from .referee import run_match
from .seeds import derive_seed
from .store.database import StoreError
from .tournament import commands as tournament_commands
from .tournament.stats_command import stats_command
from .viewer import commands as viewer_commands
from .web import command as web_command

app = typer.Typer(help="Tournament engine for board-game bots.", no_args_is_help=True, add_completion=False)
bot_app = typer.Typer(help="Run bots.", no_args_is_help=True)
app.add_typer(bot_app, name="bot")
app.add_typer(ladder_app, name="ladder")
app.command("run")(tournament_commands.run)
app.command("standings")(tournament_commands.standings_command)
app.command("matches")(tournament_commands.matches_command)
app.command("stats")(stats_command)
app.command("web")(web_command.web)
app.command("replay")(viewer_commands.replay_command)
app.command("verify")(viewer_commands.verify_command)
app.command("duel")(duel)
app.command("submit")(submit)
console = Console()


@app.command()
def play(
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            help="A seat, in seat order: a command that starts a bot, or HOST:PORT of a running bot. "
            "Default: the game's demonstration table (`smtourney games` lists it).",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(min=0, max=MAX_SEED, help="Match seed (all chance); bots never see it.")
    ] = 7,
    game: Annotated[
        str | None,
        typer.Option(help="Game to play (`smtourney games` lists them); needed when several are installed."),
    ] = None,
    decision_ms: DecisionMs = 1000,
    bank_ms: BankMs = 10_000,
    strikes: Strikes = 3,
    log_dir: Annotated[Path, typer.Option(help="Where bot output is written.")] = Path("logs"),
    record: Annotated[Path | None, typer.Option(help="Write the match record (JSON) here.")] = None,
    sandbox: Annotated[
        bool, typer.Option(help="Launch the bots in the sandbox (no network, only their own program).")
    ] = True,
) -> None:
    """Play one match between bots and show the boards live, then the result."""
    try:
        plugin = game_plugin(game)
        specs = seat_specs(plugin, bot or list(plugin.demo_seats), sandbox=sandbox)
        log_dir = log_folder(log_dir)
        if record is not None:
            check_output_file("--record", record)
    except ArgumentError as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None
    config = referee_config(decision_ms, bank_ms, strikes)
    interrupt_on_sigterm()
    view = _MatchView(plugin)
    try:
        failures = preflight(plugin, specs, limits=config.limits, startup_timeout_s=config.startup_timeout_s)
        for failure in failures:
            print_error(failure.line())
        if failures:
            raise typer.Exit(2)
        with view:
            result = run_match(
                plugin,
                specs,
                match_id=f"play-{derive_seed(seed, 'match id'):016x}",  # reveals nothing of the seed
                seed=seed,
                config=config,
                log_dir=log_dir,
                on_step=view.on_step,
            )
    except KeyboardInterrupt:
        stop_all()
        print_error("the match was abandoned and every bot process stopped.", label="interrupted:")
        raise typer.Exit(130) from None
    _print_result(result)
    if record is not None:
        try:
            record.write_text(json.dumps(result.to_json(), indent=1))
        except OSError as exc:
            print_error(f"cannot write the match record to {record}: {exc.strerror}")
            raise typer.Exit(1) from None
        console.print(plain(f"match record written to {record}"))


class _MatchView:
    """The boards after every turn: redrawn in place on a terminal, printed otherwise."""

    def __init__(self, plugin: GamePlugin) -> None:
        self.plugin = plugin
        self.live = (
            Live(Text("starting bots..."), console=console, auto_refresh=False)
            if console.is_terminal
            else None
        )
        self.turn: int | None = None
        self.last: GameState | None = None

    def __enter__(self) -> _MatchView:
        if self.live is not None:
            self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)
        elif self.last is not None:
            console.print(Text(self.plugin.render(self.last)), soft_wrap=True)

    def on_step(self, state: GameState, step: StepRecord) -> None:
        if step.strike:  # the bot's own words may be in it: shown literally
            print_error(step.strike, label=f"seat {step.seat} strike:", style="yellow")
        self.last = state
        turn = self.plugin.turn(state)
        if turn == self.turn:
            return
        self.turn = turn
        if self.live is not None:
            self.live.update(Text(self.plugin.render(state)), refresh=True)
        else:
            console.print(f"after turn {turn}: scores {state.scores()}", highlight=False)


def _print_result(result: MatchRecord) -> None:
    table = Table(title=plain(f"{result.game} match {result.match_id} (seed {result.seed})"))
    for column in ("seat", "entrant", "bot", "rank", "score", "strikes", "forfeit", "time used"):
        table.add_column(column)
    for seat in result.seats:
        table.add_row(
            str(seat.seat),
            plain(seat.name),
            plain(seat.bot),  # what the bot said in Hello
            str(seat.rank),
            str(seat.score),
            str(seat.strikes),
            plain(seat.forfeit_reason or ""),
            f"{seat.time_used_ms / 1000:.2f} s",
        )
    console.print(table)
    for seat in result.seats:
        for fault in seat.faults:
            print_error(fault, label=visible(f"seat {seat.seat} ({seat.name}):"), style="yellow", out=console)


@app.command("games")
def games_command(
    json_output: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the installed games: players, parameters and decision kinds."""
    listing = [_game_listing(plugin) for _, plugin in sorted(listed_games().items())]
    for missing in declared_but_not_installed():
        print_error(missing.hint(), label="note:", style="yellow")
    if json_output:
        print(json.dumps(listing, indent=1))
        return
    for entry in listing:
        console.print(
            Text(f"{entry['name']} — {entry['title']}, {entry['min_players']}-{entry['max_players']} players")
        )
        console.print(Text("  parameters:"))
        for param in entry["parameters"]:
            default = json.dumps(param["default"])
            console.print(Text(f"    {param['name']} (default {default}): {param['summary']}"))
        console.print(Text("  decisions:"))
        for decision in entry["decisions"]:
            console.print(Text(f"    {decision['kind']} ({decision['rpc']}): {decision['summary']}"))
        console.print(Text(f"  demonstration table: {', '.join(entry['demo_seats'])}"))


def _game_listing(plugin: GamePlugin) -> dict[str, Any]:
    return {
        "name": plugin.name,
        "title": plugin.title,
        "min_players": plugin.min_players,
        "max_players": plugin.max_players,
        "parameters": [
            {"name": p.name, "default": p.default, "summary": p.summary} for p in plugin.parameters
        ],
        "service": plugin.decisions.service_name,
        "decisions": [
            {"kind": spec.kind, "rpc": spec.rpc, "summary": spec.summary} for spec in plugin.decisions
        ],
        "demo_seats": list(plugin.demo_seats),
    }


def _readable_file(help_text: str) -> typer.models.OptionInfo:
    """An option naming a file that must exist and be readable: refused before anything starts."""
    info: typer.models.OptionInfo = typer.Option(exists=True, dir_okay=False, readable=True, help=help_text)
    return info


@bot_app.command("serve")
def bot_serve(
    target: Annotated[str, typer.Argument(help="MODULE:CLASS of the bot, e.g. bots.greedy:GreedyBot")],
    port: Annotated[
        int | None,
        typer.Option(min=0, max=MAX_PORT, help="Port to listen on (0: pick one; default: $SMTOURNEY_PORT)"),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    address: Annotated[
        str | None,
        typer.Option(
            help="Listen on this gRPC address instead, e.g. unix:/tmp/bot.sock "
            "(default: $SMTOURNEY_ADDRESS, when no port is given)."
        ),
    ] = None,
    tls_cert: Annotated[
        Path | None,
        typer.Option(
            exists=True, dir_okay=False, readable=True, help="PEM certificate chain: serve over TLS."
        ),
    ] = None,
    tls_key: Annotated[
        Path | None,
        typer.Option(exists=True, dir_okay=False, readable=True, help="PEM private key of --tls-cert."),
    ] = None,
    token: Annotated[
        str | None, typer.Option(help="Require this bearer token on every call (default: $SMTOURNEY_TOKEN).")
    ] = None,
) -> None:
    """Serve a bot class over gRPC until SIGTERM or Ctrl-C."""
    try:
        bot_class = load_bot_class(target)
    except BotClassError as exc:
        raise typer.BadParameter(str(exc), param_hint="TARGET") from None
    try:
        port = port_from_env(os.environ, PORT_ENV) if port is None else port
        check_listen(host, port or 0)
    except ArgumentError as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None
    argv = ["--host", host] + ([] if port is None else ["--port", str(port)])
    argv += [] if address is None else ["--address", address]
    if tls_cert is not None or tls_key is not None:
        argv += ["--tls-cert", str(tls_cert), "--tls-key", str(tls_key)]
    if token is not None:
        argv += ["--token", token]
    try:  # what fails here fails starting to serve: once serving, it only waits for a signal
        serve_bot(bot_class(), argv)
    except (OSError, RuntimeError) as exc:
        where = address or f"{host} port {port if port is not None else 0}"
        print_error(f"cannot serve on {where}: {exc}")
        raise typer.Exit(1) from None


@bot_app.command("check")
def bot_check(
    target: Annotated[
        str, typer.Argument(help="The command that starts the bot, or the address of a running bot.")
    ],
    game: Annotated[
        str | None, typer.Option(help="The game to check (default: every installed game the bot lists).")
    ] = None,
    sandbox: Annotated[
        bool, typer.Option(help="Launch the command in the sandbox, as a bracket does by default.")
    ] = True,
    decision_ms: Annotated[
        int, typer.Option(min=1, max=MAX_DECISION_MS, help="Deadline of each scripted decision.")
    ] = 1000,
    startup_timeout: Annotated[
        float, typer.Option(min=1, max=600, help="Seconds a launched bot has to become healthy.")
    ] = 20.0,
    log_dir: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the launched bot's output (bot-check.log, written afresh); "
            "default: a new temporary folder, kept. The health line names the file."
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(help="Check tables of this size only, with --game (default: its least and most)."),
    ] = None,
) -> None:
    """Check that a bot speaks the protocol right: health, Hello, every decision kind, edge cases."""
    try:
        if players is not None and game is None:
            raise ArgumentError("--players", "needs --game: table sizes differ from game to game")
        if game is not None:
            plugin = game_plugin(game)  # a family's game too, its parameters' defaults loaded
            if players is not None and not plugin.min_players <= players <= plugin.max_players:
                sizes = f"{plugin.min_players} to {plugin.max_players}"
                raise ArgumentError("--players", f"{game} is played by {sizes}, not {players}")
        log_dir = None if log_dir is None else log_folder(log_dir)
    except ArgumentError as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None
    interrupt_on_sigterm()
    try:
        passed = check_bot(
            target,
            game=game,
            sandboxed=sandbox,
            log_dir=log_dir,
            players=players,
            startup_timeout_s=startup_timeout,
            decision_ms=decision_ms,
            report=lambda check: print(*map(visible, check.lines()), sep="\n", flush=True),
        )
    except KeyboardInterrupt:
        stop_all()
        print_error("the check was stopped.", label="interrupted:")
        raise typer.Exit(130) from None
    if not passed:
        raise typer.Exit(1)


def main() -> None:
    """Console-script entry point. A database failing under a command is one line, never a traceback."""
    try:
        app()
    except StoreError as exc:
        print_error(str(exc))
        raise SystemExit(1) from None
