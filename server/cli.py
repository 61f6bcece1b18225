"""The ``smtourney`` command line."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.live import Live
from rich.table import Table
from rich.text import Text

from sdk.bot import Bot
from sdk.games.plugin import GamePlugin, GameState
from sdk.games.registry import games as installed_games
from sdk.games.registry import get_game
from sdk.serve import run as serve_bot

from .launcher import interrupt_on_sigterm, stop_all
from .record import MatchRecord, StepRecord
from .referee import RefereeConfig, TimeControl, run_match
from .seats import SeatSpec
from .seeds import derive_seed
from .tournament import commands as tournament_commands
from .viewer import commands as viewer_commands
from .web import command as web_command

app = typer.Typer(help="Tournament engine for board-game bots.", no_args_is_help=True, add_completion=False)
bot_app = typer.Typer(help="Run bots.", no_args_is_help=True)
app.add_typer(bot_app, name="bot")
app.command("run")(tournament_commands.run)
app.command("standings")(tournament_commands.standings_command)
app.command("matches")(tournament_commands.matches_command)
app.command("web")(web_command.web)
app.command("replay")(viewer_commands.replay_command)
app.command("verify")(viewer_commands.verify_command)
console = Console()
err_console = Console(stderr=True)

_ADDRESS = re.compile(r"^[\w.\-\[\]:]+:\d+$")


def _seat_specs(values: list[str]) -> list[SeatSpec]:
    """``host:port`` is a running bot to connect to; anything else a command to launch.

    Seats are named after the address or the command's last word, made unique.
    """
    specs: list[SeatSpec] = []
    for value in values:
        base = value if _ADDRESS.match(value) else value.rsplit(maxsplit=1)[-1].removeprefix("bots.")
        taken = sum(1 for spec in specs if spec.name.split("#")[0] == base)
        name = f"{base}#{taken + 1}" if taken else base
        if _ADDRESS.match(value):
            specs.append(SeatSpec(name=name, address=value))
        else:
            specs.append(SeatSpec(name=name, command=value))
    return specs


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
    seed: Annotated[int, typer.Option(help="Match seed (all chance); bots never see it.")] = 7,
    game: Annotated[
        str | None,
        typer.Option(help="Game to play (`smtourney games` lists them); needed when several are installed."),
    ] = None,
    decision_ms: Annotated[int, typer.Option(min=1, help="Time per decision, ms.")] = 1000,
    bank_ms: Annotated[int, typer.Option(min=0, help="Time bank per seat for the match, ms.")] = 10_000,
    strikes: Annotated[int, typer.Option(min=1, help="Strikes before a seat is forfeited.")] = 3,
    log_dir: Annotated[Path, typer.Option(help="Where bot output is written.")] = Path("logs"),
    record: Annotated[Path | None, typer.Option(help="Write the match record (JSON) here.")] = None,
) -> None:
    """Play one match between bots and show the boards live, then the result."""
    try:
        plugin = get_game(game or _only_game())
    except KeyError as exc:
        err_console.print(f"error: {exc.args[0]}", markup=False, highlight=False)
        raise typer.Exit(2) from None
    specs = _seat_specs(bot or list(plugin.demo_seats))
    config = RefereeConfig(TimeControl(decision_ms, bank_ms), strikes_to_forfeit=strikes)
    interrupt_on_sigterm()
    view = _MatchView(plugin)
    try:
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
        err_console.print("[red]interrupted[/]: the match was abandoned and every bot process stopped.")
        raise typer.Exit(130) from None
    _print_result(result)
    if record is not None:
        record.write_text(json.dumps(result.to_json(), indent=1))
        console.print(f"match record written to {record}")


def _only_game() -> str:
    installed = sorted(installed_games())
    if len(installed) != 1:
        raise KeyError(f"choose a game with --game; installed games: {', '.join(installed) or 'none'}")
    return installed[0]


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
            console.print(self.plugin.render(self.last), highlight=False, soft_wrap=True, markup=False)

    def on_step(self, state: GameState, step: StepRecord) -> None:
        if step.strike:
            err_console.print(f"[yellow]seat {step.seat} strike:[/] {step.strike}")
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
    table = Table(title=f"{result.game} match {result.match_id} (seed {result.seed})")
    for column in ("seat", "entrant", "bot", "rank", "score", "strikes", "forfeit", "time used"):
        table.add_column(column)
    for seat in result.seats:
        table.add_row(
            str(seat.seat),
            seat.name,
            seat.bot,
            str(seat.rank),
            str(seat.score),
            str(seat.strikes),
            seat.forfeit_reason or "",
            f"{seat.time_used_ms / 1000:.2f} s",
        )
    console.print(table)
    for seat in result.seats:
        for fault in seat.faults:
            console.print(f"[yellow]seat {seat.seat} ({seat.name}):[/] {fault}")


@app.command("games")
def games_command(
    json_output: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the installed games: players, parameters and decision kinds."""
    listing = [_game_listing(plugin) for _, plugin in sorted(installed_games().items())]
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


@bot_app.command("serve")
def bot_serve(
    target: Annotated[str, typer.Argument(help="MODULE:CLASS of the bot, e.g. bots.greedy:GreedyBot")],
    port: Annotated[int, typer.Option(help="Port to listen on (0: pick one; default: $SMTOURNEY_PORT)")] = -1,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    tls_cert: Annotated[Path | None, typer.Option(help="PEM certificate chain: serve over TLS.")] = None,
    tls_key: Annotated[Path | None, typer.Option(help="PEM private key of --tls-cert.")] = None,
    token: Annotated[
        str | None, typer.Option(help="Require this bearer token on every call (default: $SMTOURNEY_TOKEN).")
    ] = None,
) -> None:
    """Serve a bot class over gRPC until SIGTERM or Ctrl-C."""
    module_name, _, class_name = target.partition(":")
    if not class_name:
        raise typer.BadParameter("expected MODULE:CLASS", param_hint="TARGET")
    try:
        bot_class = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise typer.BadParameter(f"cannot load {target}: {exc}", param_hint="TARGET") from exc
    if not (isinstance(bot_class, type) and issubclass(bot_class, Bot)):
        raise typer.BadParameter(f"{target} is not a Bot subclass", param_hint="TARGET")
    argv = ["--host", host] + (["--port", str(port)] if port >= 0 else [])
    if tls_cert is not None or tls_key is not None:
        argv += ["--tls-cert", str(tls_cert), "--tls-key", str(tls_key)]
    if token is not None:
        argv += ["--token", token]
    serve_bot(bot_class(), argv)


def main() -> None:
    """Console-script entry point."""
    app()
