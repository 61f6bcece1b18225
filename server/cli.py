"""The ``smtourney`` command line."""

from __future__ import annotations

import random
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from sdk.games import saint_malo as sm

app = typer.Typer(
    help="Tournament engine for board-game bots.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()


@app.callback()
def _root() -> None:
    """Tournament engine for board-game bots."""


@app.command()
def play(
    players: Annotated[int, typer.Option(min=2, max=5, help="Seats at the table.")] = 4,
    seed: Annotated[int, typer.Option(help="Seed of the dice and of the random bots.")] = 7,
    every_turn: Annotated[bool, typer.Option(help="Show the boards after every turn.")] = False,
) -> None:
    """Play one local Saint Malo match between random bots and show the result."""
    dice_rng = random.Random(seed)
    policies = [sm.RandomPolicy(random.Random(f"{seed}/seat{i}")) for i in range(players)]
    state = sm.new_game(players)
    turn = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(dice_rng))
        else:
            state.apply(policies[state.current](state))
        if every_turn and state.turn != turn:
            turn = state.turn
            console.rule(f"after turn {turn}")
            console.print(sm.render(state), highlight=False)
    console.print(sm.render(state), highlight=False)
    table = Table(title=f"Saint Malo, {players} players, seed {seed}")
    for column in ("seat", "rank", "score", "vp track", "empty spaces"):
        table.add_column(column, justify="right")
    for seat, (score, rank) in enumerate(zip(state.scores(), state.ranks(), strict=True)):
        city = state.cities[seat]
        table.add_row(str(seat), str(rank), str(score), str(city.vp), str(city.empty_count))
    console.print(table)


def main() -> None:
    """Console-script entry point."""
    app()
