"""Simultaneous decisions: a Bruges match of slow bots, asked at once vs one after another.

    python benchmarks/simultaneous.py [--players 4] [--think-ms 50] [--seed 1] [--json]

Plays the same Bruges match twice through ``server.referee.run_match``, against one
``benchmarks.sleepy_bot`` process per seat (each sleeps ``--think-ms`` on every decision,
then answers as the random bot, seeded by match, seat and decision id, so both matches take
exactly the same steps). Bots run unsandboxed, on TCP ports of 127.0.0.1.

* ``at_once``: the referee as it is: where the game says several seats decide now
  (``deciding_seats``), it asks them all at once and applies the replies in seat order.
* ``one_by_one``: the same plugin with ``deciding_seats`` cut down to the next seat alone,
  which is how every decision was asked before.

A *group* is a set of decisions the first match asked together (its steps share
``asked_at``). Its wall time runs from the ``on_step`` callback of the step before the group
to the callback of its last step, so it covers building every request, the calls, and
checking and applying every reply; the same steps are timed in the second match. The
*longest thinker* of a group is its slowest decision's own latency in the first match. The
target: at once, a group takes at most 1.2 times its longest thinker; one after another it
takes about the sum of its members' thinking.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdk.games.plugin import GamePlugin, GameState
from sdk.games.registry import get_game
from server.launcher import Limits
from server.record import MatchRecord, StepRecord
from server.referee import RefereeConfig, TimeControl, run_match
from server.seats import SeatSpec

ROOT = Path(__file__).resolve().parent.parent


class OneByOne:
    """A plugin that asks one seat at a time: the referee's behaviour before simultaneous decisions."""

    def __init__(self, plugin: GamePlugin) -> None:
        self._plugin = plugin

    def deciding_seats(self, state: GameState) -> tuple[int, ...]:
        return (state.current_player,)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._plugin, name)


@dataclass(frozen=True, slots=True)
class Timed:
    record: MatchRecord
    clock: list[float]  # time of each step's on_step callback, by seq


def play(plugin: Any, players: int, think_ms: int, seed: int, log_dir: Path) -> Timed:
    clock: list[float] = []

    def stamp(_: GameState, __: StepRecord) -> None:
        clock.append(time.perf_counter())

    specs = [
        SeatSpec(
            name=f"sleepy-{seat}",
            command=f"{sys.executable} -m benchmarks.sleepy_bot",
            env={"PYTHONPATH": str(ROOT), "SMTOURNEY_THINK_MS": str(think_ms)},
            sandbox=False,
        )
        for seat in range(players)
    ]
    config = RefereeConfig(TimeControl(decision_ms=10 * think_ms + 1000, bank_ms=60_000), limits=Limits())
    start = time.perf_counter()
    record = run_match(
        plugin,
        specs,
        match_id=f"simultaneous-{seed}",
        seed=seed,
        config=config,
        log_dir=log_dir,
        on_step=stamp,
    )
    faults = [fault for seat in record.seats for fault in seat.faults]
    if faults:
        raise SystemExit(f"a bot faulted, the figures would not be decisions over the wire: {faults[0]}")
    return Timed(record, [start, *clock])  # clock[seq] is the callback before step seq


def groups(record: MatchRecord) -> list[list[int]]:
    """The seqs of each group of decisions asked together, in order."""
    found: dict[int, list[int]] = {}
    for step in record.steps:
        if step.asked_at is not None:
            found.setdefault(step.asked_at, []).append(step.seq)
    return list(found.values())


def measure(players: int, think_ms: int, seed: int) -> dict[str, Any]:
    plugin = get_game("bruges")
    with tempfile.TemporaryDirectory() as tmp:
        together = play(plugin, players, think_ms, seed, Path(tmp) / "at-once")
        apart = play(OneByOne(plugin), players, think_ms, seed, Path(tmp) / "one-by-one")
    steps = [(s.kind, s.step) for s in together.record.steps]
    if steps != [(s.kind, s.step) for s in apart.record.steps]:
        raise SystemExit("the two matches took different steps: the timings would not compare")
    rows: list[dict[str, Any]] = []
    for seqs in groups(together.record):
        first, last = seqs[0], seqs[-1]
        longest_ms = max(together.record.steps[seq].latency_us or 0 for seq in seqs) / 1000
        rows.append(
            {
                "kind": together.record.steps[first].kind,
                "seats": len(seqs),
                "longest_thinker_ms": longest_ms,
                "at_once_ms": (together.clock[last + 1] - together.clock[first]) * 1000,
                "one_by_one_ms": (apart.clock[last + 1] - apart.clock[first]) * 1000,
            }
        )
    ratios = [row["at_once_ms"] / row["longest_thinker_ms"] for row in rows]
    apart_ratios = [row["one_by_one_ms"] / row["longest_thinker_ms"] for row in rows]
    return {
        "players": players,
        "think_ms": think_ms,
        "seed": seed,
        "steps": len(together.record.steps),
        "groups": len(rows),
        "kinds": sorted({row["kind"] for row in rows}),
        "mean_seats_per_group": statistics.fmean(row["seats"] for row in rows) if rows else 0.0,
        "at_once_ratio_mean": statistics.fmean(ratios) if rows else None,
        "at_once_ratio_max": max(ratios, default=None),
        "one_by_one_ratio_mean": statistics.fmean(apart_ratios) if rows else None,
        "groups_time_at_once_s": sum(row["at_once_ms"] for row in rows) / 1000,
        "groups_time_one_by_one_s": sum(row["one_by_one_ms"] for row in rows) / 1000,
        "match_time_at_once_s": together.record.duration_s,
        "match_time_one_by_one_s": apart.record.duration_s,
        "target_ratio": 1.2,
        "per_group": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=4, choices=range(2, 5))
    parser.add_argument("--think-ms", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = measure(args.players, args.think_ms, args.seed)
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"Bruges, {result['players']} bots thinking {result['think_ms']} ms per decision, "
        f"seed {result['seed']}: {result['steps']} steps, {result['groups']} groups asked together "
        f"({', '.join(result['kinds']) or 'none'}; "
        f"{result['mean_seats_per_group']:.2f} seats each on average)"
    )
    for row in result["per_group"]:
        print(
            f"  group of {row['seats']} ({row['kind']}): longest thinker {row['longest_thinker_ms']:.1f} ms, "
            f"at once {row['at_once_ms']:.1f} ms, one by one {row['one_by_one_ms']:.1f} ms"
        )
    if result["groups"]:
        print(
            f"  at once:        group time / longest thinker  mean {result['at_once_ratio_mean']:.3f}, "
            f"max {result['at_once_ratio_max']:.3f} (target <= {result['target_ratio']})"
        )
        print(f"  one by one:     group time / longest thinker  mean {result['one_by_one_ratio_mean']:.3f}")
        print(
            f"  all groups:     {result['groups_time_at_once_s']:.2f} s at once, "
            f"{result['groups_time_one_by_one_s']:.2f} s one by one"
        )
    print(
        f"  whole match:    {result['match_time_at_once_s']:.2f} s at once, "
        f"{result['match_time_one_by_one_s']:.2f} s one by one"
    )


if __name__ == "__main__":
    main()
