"""``python -m sdk.games.openspiel.admit``: admit OpenSpiel games by test, not by a hand list.

Every registered game with 2 or more players is loaded with its default parameters (or those in
``PARAMS``) and played at its least table size of 2 or more and at its default one, through every
conformance check (``sdk.games.conformance``) and the check against OpenSpiel itself
(``crosscheck``), for ``SEEDS`` seeded random games each. The games that pass every check are
admitted; the others are excluded with the first failure as the reason. The run writes
``admitted.json`` (which ``smtourney games`` lists) and the table of every game in
``docs/openspiel.md``; ``--docs`` rewrites only the table, from the data file; naming games
checks only those and updates their entries.

Each game runs in a process of its own with a time limit, so one that hangs or crashes inside
OpenSpiel costs only its own admission.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from sdk.games import conformance
from sdk.games.conformance import Check

from . import admitted as data_file
from .crosscheck import check_against_openspiel
from .loader import pyspiel
from .plugin import OpenSpielGame

#: Random games per table size and check: enough to meet most of a game's rules, few enough that
#: a hundred games are admitted in minutes on a small machine.
SEEDS = range(2)
#: Wall-clock seconds one game's checks may take before it is excluded as too slow to admit.
TIME_LIMIT = 120.0
#: Parameters a game is admitted with instead of its defaults, and why.
PARAMS: dict[str, dict[str, Any]] = {
    # Small enough to play quickly, and won by points (each seat's total), as the game is scored.
    "goofspiel": {"num_cards": 4, "imp_info": True, "returns_type": "total_points"},
    # The default deal runs a double-dummy solver inside apply_action (hundreds of milliseconds
    # holding the interpreter lock, stalling clocks and the referee): played out instead.
    "bridge": {"use_double_dummy_result": False},
}
#: The conformance checks and the check against OpenSpiel itself.
CHECKS: dict[str, Check] = {**conformance.CHECKS, "OpenSpiel cross-check": check_against_openspiel}
#: Table sizes a few random games may pass but a tournament would not: the most seats, and why.
AT_MOST: dict[str, tuple[int, str]] = {
    "snake": (2, "plays 2 or 4 players only, not 3"),
}
DOCS = Path(__file__).resolve().parents[3] / "docs" / "openspiel.md"


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 160 else text[:157] + "..."


def precheck(name: str) -> str | None:
    """Why ``name`` cannot be admitted before playing it, or None."""
    spiel = pyspiel()
    kind = next(kind for kind in spiel.registered_games() if kind.short_name == name)
    if kind.max_num_players < 2:
        return "one player only"
    try:
        game, said = _load_saying(spiel, name, PARAMS.get(name, {}))
    except Exception as error:  # OpenSpiel raises more than SpielError here (IndexError, ValueError)
        return f"does not load with its default parameters: {_one_line(error)}"
    if said:  # printed by OpenSpiel at every load, so at every listing of the games
        return f"OpenSpiel warns whenever it is loaded: {_one_line(Exception(said.splitlines()[0]))}"
    if game.get_type().chance_mode == spiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        return "draws chance inside OpenSpiel, which the referee cannot seed"
    return None


def _load_saying(spiel: Any, name: str, params: dict[str, Any]) -> tuple[Any, str]:
    """The game, and what OpenSpiel's C++ wrote to standard error loading it (each game is checked
    in a process of its own, so borrowing the process's descriptor 2 here disturbs nothing)."""
    with tempfile.TemporaryFile() as caught:
        saved = os.dup(2)
        os.dup2(caught.fileno(), 2)
        try:
            game = spiel.load_game(name, params)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        return game, caught.read().decode(errors="replace").strip()


def table_sizes(name: str) -> list[int]:
    """The table sizes a game is checked at: its least of 2 or more, its default (or 2), its most."""
    spiel = pyspiel()
    kind = next(kind for kind in spiel.registered_games() if kind.short_name == name)
    default = int(spiel.load_game(name, PARAMS.get(name, {})).num_players())
    return sorted({max(2, int(kind.min_num_players)), max(2, default), int(kind.max_num_players)})


def _failure(plugin: Any, players: int) -> str | None:
    """The first check failing at ``players`` seats, as a reason, or None."""
    for seed in SEEDS:
        for what, check in CHECKS.items():
            try:
                check(plugin, seed, players, {})
            except Exception as error:  # any failure is the reason, recorded
                return f"{what} fails at {players} players: {_one_line(error)}"
    return None


def check_game(name: str, passing: Callable[[int], None] = lambda players: None) -> dict[str, Any]:
    """Every check at each table size, the least first: ``{"players": [...], "params": {...}}`` for the
    sizes passed (up to the first failing one, named in ``"not_above"``), or ``{"reason": ...}``.
    ``passing`` hears of each size as it passes, so that a run stopped for time keeps those."""
    params = PARAMS.get(name, {})
    reason = precheck(name)
    if reason is not None:
        return {"reason": reason}
    try:
        plugin = OpenSpielGame(name, params)
        passed: list[int] = []
        most, why = AT_MOST.get(name, (None, ""))
        for players in table_sizes(name):
            if most is not None and players > most:
                return _verdict(name, passed, why)
            failure = _failure(plugin, players)
            if failure is not None:
                return _verdict(name, passed, failure)
            passed.append(players)
            passing(players)
    except Exception as error:  # a game that cannot be set up is excluded
        return {"reason": f"cannot be set up: {_one_line(error)}"}
    return _verdict(name, passed)


def _verdict(name: str, passed: list[int], stop: str = "") -> dict[str, Any]:
    """Admitted at the table sizes ``passed``, with why not above them (``stop``, where something
    stopped the run), or excluded for ``stop`` where no size passed."""
    if not passed:
        return {"reason": stop}
    verdict: dict[str, Any] = {"players": passed, "params": dict(PARAMS.get(name, {}))}
    return {**verdict, "not_above": stop} if stop else verdict


def _child(name: str, pipe: Connection) -> None:
    pipe.send(check_game(name, pipe.send))


def _too_slow(name: str, passed: list[int]) -> dict[str, Any]:
    """A game out of time: admitted at the sizes it passed in time, if any."""
    above = f" above {passed[-1]} players" if passed else ""
    return _verdict(name, passed, f"too slow for the admission run{above}")


def admit_all(names: list[str], workers: int, log: Any) -> dict[str, Any]:
    """Every game checked, ``workers`` at a time, each in its own process within ``TIME_LIMIT``."""
    result: dict[str, Any] = {"admitted": {}, "excluded": {}}
    queue = list(names)
    context = multiprocessing.get_context("fork")
    running: dict[str, tuple[Any, Connection, float]] = {}
    passed: dict[str, list[int]] = {}
    while queue or running:
        while queue and len(running) < workers:
            name = queue.pop(0)
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_child, args=(name, send), daemon=True)
            process.start()
            send.close()
            running[name] = (process, receive, time.monotonic())
            passed[name] = []
        for name, (process, receive, started) in list(running.items()):
            outcome: Mapping[str, Any] | None = None
            if time.monotonic() - started > TIME_LIMIT:
                process.kill()
                outcome = _too_slow(name, passed[name])
            elif receive.poll(0.05):
                try:
                    message = receive.recv()
                except EOFError:
                    outcome = {"reason": f"crashed inside OpenSpiel (exit code {process.exitcode})"}
                else:
                    if isinstance(message, int):
                        passed[name].append(message)
                    else:
                        outcome = message
            elif not process.is_alive() and not receive.poll():
                outcome = {"reason": f"crashed inside OpenSpiel (exit code {process.exitcode})"}
            if outcome is None:
                continue
            process.join()
            del running[name]
            if "reason" in outcome:
                result["excluded"][name] = outcome["reason"]
            else:
                result["admitted"][name] = dict(outcome)
            took = time.monotonic() - started
            print(f"{name}: {outcome.get('reason', 'admitted')} ({took:.1f} s)", file=log)
    result["admitted"] = dict(sorted(result["admitted"].items()))
    result["excluded"] = dict(sorted(result["excluded"].items()))
    return result


def merged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """``old`` with the games ``new`` checked replaced by ``new``'s verdicts."""
    checked = {*new["admitted"], *new["excluded"]}
    return {
        section: dict(
            sorted([*((k, v) for k, v in old[section].items() if k not in checked), *new[section].items()])
        )
        for section in ("admitted", "excluded")
    }


def write_docs(data: dict[str, Any]) -> None:
    DOCS.write_text(data_file.with_docs_section(DOCS.read_text(), data))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sdk.games.openspiel.admit", description=__doc__)
    parser.add_argument("--docs", action="store_true", help="only rewrite the docs table from the data file")
    parser.add_argument("--workers", type=int, default=2, help="games checked at once")
    parser.add_argument("games", nargs="*", help="only check these games, updating only their entries")
    args = parser.parse_args(argv)
    if args.docs:
        write_docs(json.loads(data_file.DATA.read_text()))
        return 0
    names = args.games or sorted(kind.short_name for kind in pyspiel().registered_games())
    data = admit_all(names, args.workers, sys.stderr)
    if args.games:
        data = merged(json.loads(data_file.DATA.read_text()), data)
    data_file.DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    write_docs(data)
    print(f"{len(data['admitted'])} admitted, {len(data['excluded'])} excluded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
