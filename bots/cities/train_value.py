"""Fits the learned Cities evaluation (:mod:`bots.cities.value`) on self-play games.

    python -m bots.cities.train_value [--players 2 4] [--games 3000] [--rounds 2] [--seed 1]
                                      [--workers 2] [--out bots/cities/value_weights.py]

Round 0 plays ``--games`` games of the heuristic bot against itself; each later round plays
as many games of the heuristic's lookahead under the weights fitted so far (policy
iteration: the positions and outcomes of better play). In every game, about half the play
decisions that start a seat's choice (not inside an event) are recorded, from every seat's
side: the features of the position and whether that seat went on to win (a shared first
counts as its share). After each round a logistic regression is fitted on every position
recorded so far, by iteratively reweighted least squares on standardised features with a
small ridge, its fit reported on the games held out (every fifth game). The last round's
weights are written to ``--out`` as a Python module.

Everything is seeded: the same arguments write the same weights (up to floating point
rounding across machines). On two cores the default takes about 25 minutes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt

from sdk.games import cities as ci
from sdk.games.play import play_to_end

from .policy import CitiesPolicy
from .value import FEATURES, MODEL_PLAYERS, features, outcome, win_probability

#: Share of the eligible play decisions whose position is recorded (the rest are too alike).
RECORD_SHARE = 0.5
#: Ridge penalty on the standardised weights.
RIDGE = 1e-3
#: Newton steps of the fit (it converges in well under this).
NEWTON_STEPS = 40
#: Every this-many-th game is held out to report the fit.
HOLD_OUT_EVERY = 5

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class GameJob:
    players: int
    seed: int
    weights: tuple[float, ...] | None


def play_and_record(job: GameJob) -> tuple[list[list[float]], list[float]]:
    """One self-play game: the recorded positions' features and each one's final outcome."""
    value = None if job.weights is None else partial(win_probability, weights=job.weights)
    policy = CitiesPolicy(value=value)
    chance = random.Random(job.seed)
    pick = random.Random(job.seed ^ 0x5EED)
    rows: list[tuple[int, list[float]]] = []

    def recorded(state: ci.State) -> ci.Action:
        if state.pending == ci.Decision.PLAY and state.ev < 0 and pick.random() < RECORD_SHARE:
            rows.extend((seat, features(state, seat)) for seat in range(state.n))
        return policy(state)

    state = play_to_end(ci.new_game(job.players), [recorded] * job.players, chance)
    results = [outcome(state, seat) for seat in range(state.n)]
    return [x for _, x in rows], [results[seat] for seat, _ in rows]


def self_play(
    players: int, games: Sequence[int], weights: tuple[float, ...] | None, workers: int
) -> list[tuple[list[list[float]], list[float]]]:
    """The recorded positions of each game seeded by ``games``."""
    jobs = [GameJob(players, seed, weights) for seed in games]
    if workers <= 1:
        return [play_and_record(job) for job in jobs]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(play_and_record, jobs, chunksize=4)


def fit(x: Matrix, y: Matrix, ridge: float = RIDGE) -> Matrix:
    """Logistic regression weights for raw features ``x`` (its last column the constant 1)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    mean[-1], scale[-1] = 0.0, 1.0
    z = (x - mean) / scale
    w = np.zeros(x.shape[1])
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) / len(y) + ridge * w
        hessian = (z.T * (p * (1 - p))) @ z / len(y) + ridge * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    raw: Matrix = w / scale
    raw[-1] -= float(mean @ raw)
    return raw


def log_loss(w: Matrix, x: Matrix, y: Matrix) -> tuple[float, float]:
    """Mean log loss and accuracy (the likelier side of one half) of ``w`` on ``x``, ``y``."""
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    return loss, float(np.mean((p > 0.5) == (y > 0.5)))


def train(players: int, games: int, rounds: int, seed: int, workers: int) -> tuple[float, ...]:
    """The weights after ``rounds`` rounds of self-play and fitting, with a report per round."""
    weights: tuple[float, ...] | None = None
    train_x: list[list[float]] = []
    train_y: list[float] = []
    for round_ in range(rounds):
        seeds = [seed * 1_000_003 + round_ * 100_000 + i for i in range(games)]
        played = self_play(players, seeds, weights, workers)
        test_x: list[list[float]] = []
        test_y: list[float] = []
        for index, (xs, ys) in enumerate(played):
            (test_x if index % HOLD_OUT_EVERY == 0 else train_x).extend(xs)
            (test_y if index % HOLD_OUT_EVERY == 0 else train_y).extend(ys)
        fitted = fit(np.array(train_x), np.array(train_y))
        loss, accuracy = log_loss(fitted, np.array(test_x), np.array(test_y))
        prior = float(np.mean(test_y))
        base = -(prior * np.log(prior) + (1 - prior) * np.log(1 - prior))
        print(
            f"{players} players, round {round_}: {len(train_y)} positions; held-out log loss {loss:.4f} "
            f"(a constant: {base:.4f}), accuracy {accuracy:.1%}",
            flush=True,
        )
        weights = tuple(float(v) for v in fitted)
    assert weights is not None
    return weights


def module_text(models: dict[int, tuple[float, ...]], commands: dict[int, str]) -> str:
    """The source of the weights module: per model, its weights and the command that fitted them."""
    lines = [
        '"""Weights of the learned Cities evaluation (bots/cities/value.py), per model (players).',
        "",
        "Written by ``python -m bots.cities.train_value`` (``TRAINED_BY``: the command per model);",
        "not edited by hand.",
        '"""',
        "",
        "TRAINED_BY: dict[int, str] = {",
        *(f'    {players}: "{command}",' for players, command in sorted(commands.items())),
        "}",
        "WEIGHTS: dict[int, tuple[float, ...]] = {",
    ]
    for players, weights in sorted(models.items()):
        lines.append(f"    {players}: (")
        lines.extend(f"        {w!r}," for w in weights)
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, nargs="+", default=list(MODEL_PLAYERS), choices=MODEL_PLAYERS)
    parser.add_argument("--games", type=int, default=3000, help="games per round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("value_weights.py"))
    args = parser.parse_args(argv)
    if args.games < HOLD_OUT_EVERY or args.rounds < 1:
        parser.error(f"--games must be at least {HOLD_OUT_EVERY} and --rounds at least 1")
    from .value_weights import TRAINED_BY, WEIGHTS

    models = dict(WEIGHTS)
    commands = dict(TRAINED_BY)
    for players in args.players:
        models[players] = train(players, args.games, args.rounds, args.seed, args.workers)
        assert len(models[players]) == FEATURES
        commands[players] = (
            f"python -m bots.cities.train_value --players {players} --games {args.games} "
            f"--rounds {args.rounds} --seed {args.seed}"
        )
    args.out.write_text(module_text(models, commands))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
