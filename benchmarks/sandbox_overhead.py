"""What the sandbox costs: start-up, per-decision latency and tournament throughput, sandboxed
against ``sandbox: false``, measured in one run; and what its relay adds for a bot that listens on
TCP (``SMTOURNEY_PORT``) rather than on the sandbox's Unix socket.

    python benchmarks/sandbox_overhead.py [--matches 4] [--rounds 2] [--repeats 2] [--json]

* ``startup_ms`` -- from spawning a trivial bot (``benchmarks.trivial_bot``, which answers every
  decision with the safe default at once) to its first ``SERVING`` health answer.
* ``decision_us`` -- the referee's recorded latency of each decision (request sent to reply
  received: the RPC over a Unix socket into the sandbox -- relayed to the bot's TCP port inside it
  for ``sandboxed_tcp`` -- or over TCP on 127.0.0.1 without it),
  over ``--matches`` two-player matches against bots launched once; mean and median.
* ``matches_per_min`` -- a whole ``run_tournament`` of four trivial bots two to a table
  (``--rounds`` rounds, one worker), bots launched for every match as in any tournament.

Sandboxed and unsandboxed measurements alternate ``--repeats`` times, so both see the same load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sdk.games.registry import get_game
from server.launcher import BotProcess, Limits
from server.referee import RefereeConfig, TimeControl, run_match
from server.seats import SeatSpec
from server.tournament.bracket import load_bracket
from server.tournament.runner import run_tournament, schedule_of

BOT = f"{sys.executable} -m benchmarks.trivial_bot"
MODES = {
    "sandboxed": (True, BOT),
    "sandboxed_tcp": (True, f"{BOT} --port {{port}}"),
    "unsandboxed": (False, BOT),
}
"""Each mode: sandboxed or not, and the bot's command (``--port {port}``: it listens on TCP)."""


def decisions(sandboxed: bool, command: str, matches: int, folder: Path) -> tuple[list[float], list[float]]:
    """Start-up times (ms) of two bots, and the latency (µs) of every decision of ``matches`` matches."""
    bots = [
        BotProcess(command, folder / f"bot{i}.log", limits=Limits(), sandboxed=sandboxed) for i in range(2)
    ]
    startups: list[float] = []
    latencies: list[float] = []
    try:
        for bot in bots:
            started = time.perf_counter()
            bot.start()
            bot.wait_healthy(30)
            startups.append((time.perf_counter() - started) * 1000)
        specs = [SeatSpec(name=f"bot{i}", address=bot.address) for i, bot in enumerate(bots)]
        config = RefereeConfig(TimeControl(5000, 20000))
        for match in range(matches):
            record = run_match(
                get_game("saint_malo"), specs, match_id=f"m{match}", seed=match, config=config, log_dir=folder
            )
            faults = [fault for seat in record.seats for fault in seat.faults]
            if faults:
                raise SystemExit(f"a fault spoils the measurement: {faults[0]}")
            latencies += [
                s.latency_us for s in record.steps if s.source == "bot" and s.latency_us is not None
            ]
    finally:
        for bot in bots:
            bot.stop()
    return startups, latencies


def throughput(sandboxed: bool, command: str, rounds: int, folder: Path) -> float:
    """Matches per minute of a whole tournament run of four trivial bots."""
    lines = [
        "name: sandbox-throughput",
        "game: saint_malo",
        "players: 2",
        f"rounds: {rounds}",
        "seed: 1",
        f"sandbox: {'true' if sandboxed else 'false'}",
        "time_control: {decision_ms: 5000, bank_ms: 20000}",
        "entrants:",
        *(f"  - {{name: bot-{i}, command: '{command}'}}" for i in range(4)),
    ]
    path = folder / "bracket.yaml"
    path.write_text("\n".join(lines) + "\n")
    bracket = load_bracket(path)
    count = len(schedule_of(bracket))
    started = time.perf_counter()
    run_tournament(bracket, folder / "throughput.db", workers=1)
    return 60 * count / (time.perf_counter() - started)


def measure(matches: int, rounds: int, repeats: int) -> dict[str, dict[str, float]]:
    startups: dict[str, list[float]] = {mode: [] for mode in MODES}
    latencies: dict[str, list[float]] = {mode: [] for mode in MODES}
    rates: dict[str, list[float]] = {mode: [] for mode in MODES}
    for _ in range(repeats):
        for mode, (sandboxed, command) in MODES.items():
            with tempfile.TemporaryDirectory() as tmp:
                up, lat = decisions(sandboxed, command, matches, Path(tmp))
                startups[mode] += up
                latencies[mode] += lat
            with tempfile.TemporaryDirectory() as tmp:
                rates[mode].append(throughput(sandboxed, command, rounds, Path(tmp)))
    return {
        mode: {
            "startup_ms": statistics.mean(startups[mode]),
            "decision_us_mean": statistics.mean(latencies[mode]),
            "decision_us_median": statistics.median(latencies[mode]),
            "decisions": len(latencies[mode]),
            "matches_per_min": statistics.mean(rates[mode]),
        }
        for mode in MODES
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=4, help="matches timed per repeat and mode")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each tournament run")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = measure(args.matches, args.rounds, args.repeats)
    inside, outside, relayed = figures["sandboxed"], figures["unsandboxed"], figures["sandboxed_tcp"]
    figures["overhead"] = {
        "startup_ms": inside["startup_ms"] - outside["startup_ms"],
        "decision_us_mean": inside["decision_us_mean"] - outside["decision_us_mean"],
        "throughput_ratio": inside["matches_per_min"] / outside["matches_per_min"],
        "relay_decision_us_mean": relayed["decision_us_mean"] - inside["decision_us_mean"],
        "relay_decision_us_median": relayed["decision_us_median"] - inside["decision_us_median"],
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{'':13} {'start-up ms':>12} {'decision µs mean':>17} {'median':>8} {'matches/min':>12}")
    for mode in MODES:
        row = figures[mode]
        print(
            f"{mode:13} {row['startup_ms']:12.0f} {row['decision_us_mean']:17.0f} "
            f"{row['decision_us_median']:8.0f} {row['matches_per_min']:12.1f}"
        )
    extra = figures["overhead"]
    print(
        f"sandbox cost: {extra['startup_ms']:+.0f} ms start-up, "
        f"{extra['decision_us_mean']:+.0f} µs per decision, throughput x{extra['throughput_ratio']:.2f}"
    )
    print(
        f"relay cost (TCP bot against socket bot, both sandboxed): {extra['relay_decision_us_mean']:+.0f} µs "
        f"mean, {extra['relay_decision_us_median']:+.0f} µs median per decision"
    )


if __name__ == "__main__":
    main()
