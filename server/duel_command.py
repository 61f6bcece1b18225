"""``smtourney duel A B --games N``: two trusted Python bot classes, many games, wins/draws/losses."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from sdk.games.plugin import GamePlugin
from sdk.games.registry import get_game

from .bounds import MAX_SEED
from .clock_options import BankMs, DecisionMs, Strikes, referee_config
from .display import plain, print_error
from .duel import DuelTally, play_duel
from .inprocess import BotClassError, bot_class_problem, load_bot_class
from .referee import RefereeConfig

MAX_DUEL_GAMES = 10_000_000
console = Console()


class _DuelArgumentError(ValueError):
    """An argument of the duel that cannot be used (one line for the user)."""


def _game(bots: tuple[str, str], name: str | None) -> GamePlugin:
    """The game to play: ``name``, or the only game both bot classes play."""
    classes = []
    for target in bots:
        try:
            classes.append(load_bot_class(target))
        except BotClassError as exc:
            raise _DuelArgumentError(f"{target}: {exc}") from None
    if name is None:
        common = [game for game in classes[0].games if game in classes[1].games]
        if len(common) != 1:
            raise _DuelArgumentError(
                f"--game: choose a game; both bots play: {', '.join(common) or 'none in common'}"
            )
        name = common[0]
    try:
        plugin = get_game(name)
    except KeyError as exc:
        raise _DuelArgumentError(f"--game: {exc.args[0]}") from None
    if not plugin.min_players <= 2 <= plugin.max_players:
        raise _DuelArgumentError(f"--game: {plugin.name} is not played by two")
    for target, cls in zip(bots, classes, strict=True):
        problem = bot_class_problem(cls, plugin)
        if problem is not None:
            raise _DuelArgumentError(f"{target}: {problem}")
    return plugin


def duel(
    first: Annotated[str, typer.Argument(help="The first bot, module:Class (e.g. mybots.v2:Bot).")],
    second: Annotated[str, typer.Argument(help="The bot it plays against, module:Class.")],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, max=MAX_DUEL_GAMES, help="Games to play.")
    ] = 100,
    game: Annotated[
        str | None, typer.Option(help="Game to play; default: the only one both bots play.")
    ] = None,
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Seed of every game's chance.")] = 0,
    decision_ms: DecisionMs = 1000,
    bank_ms: BankMs = 10_000,
    strikes: Strikes = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object, no progress.")] = False,
) -> None:
    """Play two trusted Python bot classes against each other, in this process, seats alternated.

    Both classes run unsandboxed in the referee's process: for one's own code only.
    Prints the first bot's wins, draws and losses, its score with a 95 % interval and the Elo
    difference (docs/writing-a-bot.md).
    """
    bots = (first, second)
    try:
        plugin = _game(bots, game)
    except _DuelArgumentError as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None
    config = referee_config(decision_ms, bank_ms, strikes)
    try:
        if as_json:
            tally = play_duel(plugin, bots, games=games, seed=seed, config=config)
        else:
            tally = _with_progress(plugin, bots, games, seed, config)
    except KeyboardInterrupt:
        print_error("the duel was stopped.", label="interrupted:")
        raise typer.Exit(130) from None
    if as_json:
        figures = {
            "first": first,
            "second": second,
            "game": plugin.name,
            "seed": seed,
            **tally.score.to_json(),
        }
        print(json.dumps({**figures, "strikes": tally.strikes, "forfeits": tally.forfeits}))
        return
    _print_tally(bots, plugin, tally)


def _with_progress(
    plugin: GamePlugin, bots: tuple[str, str], games: int, seed: int, config: RefereeConfig
) -> DuelTally:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(escape(f"{bots[0]} vs {bots[1]}"), total=games)

        def advance(played: int, tally: DuelTally) -> None:
            progress.update(
                task, completed=played, description=f"W {tally.wins} D {tally.draws} L {tally.losses}"
            )

        return play_duel(plugin, bots, games=games, seed=seed, config=config, on_game=advance)


def _print_tally(bots: tuple[str, str], plugin: GamePlugin, tally: DuelTally) -> None:
    score = tally.score
    low, high = score.interval
    elo_low, elo_high = score.elo_interval
    console.print(plain(f"{bots[0]} vs {bots[1]}: {score.games} games of {plugin.title}"))
    console.print(f"wins {score.wins}, draws {score.draws}, losses {score.losses}")
    console.print(f"score {score.score:.3f} (95 % interval {low:.3f} to {high:.3f})")
    console.print(f"Elo difference {_elo(score.elo)} (95 % interval {_elo(elo_low)} to {_elo(elo_high)})")
    for n, target in enumerate(bots):
        if tally.strikes[n] or tally.forfeits[n]:
            console.print(plain(f"{target}: {tally.strikes[n]} strikes, {tally.forfeits[n]} games forfeited"))


def _elo(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:+.1f}" if math.isfinite(value) else f"{value:+}"
