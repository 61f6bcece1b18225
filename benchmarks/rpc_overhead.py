"""RPC overhead: the referee's wall time per decision against a bare gRPC echo.

    python benchmarks/rpc_overhead.py [--matches 3] [--players 4] [--seed 1] [--calls 6000]
                                      [--no-sandbox] [--json]

Two figures, measured in one run, each against separate processes launched as a tournament
launches bots (sandboxed, on Unix sockets; with ``--no-sandbox`` on TCP ports of 127.0.0.1):

* ``decision_us`` -- full Saint Malo matches played by ``server.referee.run_match``
  against ``benchmarks.trivial_bot`` processes, which answer every decision with the
  safe default at once. The bots are launched once, up front, and every match
  connects to them by address: forking while gRPC channels are live can kill the
  child before it execs (grpc/grpc#43055), which launching per match hit here.
  Every step the referee records fires ``on_step``; a decision's time is the wall
  time from the previous step's callback to its own, so it covers all the referee
  does for it: build the request (observation encoding), the RPC, the bot decoding
  the observation and answering, decoding the reply, validating and applying it,
  and recording the step. Chance steps (dice
  rolls, tens of microseconds at most) are timed apart and left out, as are bot
  start-up, Hello, StartMatch and EndMatch. Any fault aborts the benchmark: a
  default played after a strike would not be a decision over the wire.
* ``echo_us`` -- a bare grpcio unary call (raw bytes, no protobuf, no SDK, no
  deadline) to one ``benchmarks.echo_server`` process, served with the bots' thread
  pool and message limit, after a warm-up. Its payload is the mean serialized size
  of the decision requests of a default-action game with the same seats and seed;
  the echo sends those bytes back, whereas a decision reply is a few bytes.

``ratio`` is ``decision_us / echo_us``: what the referee, the SDK and protobuf add
on top of the transport (target: at most 1.25).

``cpu_ratio`` is the same comparison in CPU time rather than wall time, which a busy
machine disturbs far less: the CPU the referee's process and every bot process (each
sandbox's processes included, from ``/proc``) used during the matches, per decision,
over the CPU this process and the echo server used per echo call. It counts a little
more than the decisions (chance steps, Hello, StartMatch and EndMatch, a new channel
per match: tens of microseconds per decision), so it errs high. The echo calls run in blocks
between the matches, so both figures see the same machine load. For context the
text output adds the same echo spread round-robin over one server per seat, as a
match spreads its decisions over one bot per seat: waking a different idle
process for every call costs more than ping-pong with one. It also splits the
RPC latency into the first decision of a seat's turn (its bot sat idle while
the other seats played) and the decisions the same seat makes right after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from sdk.games.play import play_to_end
from sdk.games.plugin import DecisionContext, GameState
from sdk.games.registry import get_game
from sdk.serve import MAX_MESSAGE_BYTES
from server.bot_host import cpu_seconds
from server.launcher import BotProcess, stop_all
from server.record import StepRecord
from server.referee import run_match
from server.seats import SeatSpec
from server.seeds import derive_seed

REPO = Path(__file__).resolve().parent.parent
BOT_COMMAND = "python -m benchmarks.trivial_bot"
ECHO_COMMAND = "python -m benchmarks.echo_server"
ECHO_METHOD = "/bench.Echo/Echo"  # served by benchmarks/echo_server.py
GAME = "saint_malo"
STARTUP_TIMEOUT_S = 20.0
WARMUP_CALLS = 500

Echo = Callable[[bytes], bytes]


def _env() -> dict[str, str]:
    """Launched processes import ``benchmarks`` from this checkout, whatever the current directory."""
    path = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": f"{REPO}{os.pathsep}{path}" if path else str(REPO)}


@dataclass
class StepClock:
    """``on_step`` callback: wall time between consecutive steps, split into decisions and chance."""

    decisions: int = 0
    decision_s: float = 0.0
    rpc_us: int = 0  # the steps' own latency_us: the decision RPC alone, as the referee times it
    chance_steps: int = 0
    chance_s: float = 0.0
    kinds: dict[str, int] = field(default_factory=dict)
    first_of_turn_us: list[int] = field(default_factory=list)  # RPC latency when the seat to move changed
    same_seat_us: list[int] = field(default_factory=list)  # RPC latency when the same seat decides again
    _last: float | None = None
    _last_seat: int | None = None

    def reset(self) -> None:
        """Forget the previous step (a new match is starting)."""
        self._last = None
        self._last_seat = None

    def __call__(self, state: GameState, step: StepRecord) -> None:
        now = time.perf_counter()
        if self._last is not None:
            if step.kind == "chance":
                self.chance_steps += 1
                self.chance_s += now - self._last
            else:
                self.decisions += 1
                self.decision_s += now - self._last
                self.rpc_us += step.latency_us or 0
                self.kinds[step.kind] = self.kinds.get(step.kind, 0) + 1
                woken = self.first_of_turn_us if step.seat != self._last_seat else self.same_seat_us
                woken.append(step.latency_us or 0)
                self._last_seat = step.seat
        self._last = now


@dataclass
class EchoClock:
    """Echo round trips: calls made and the wall time they took."""

    calls: int = 0
    elapsed_s: float = 0.0

    def time(self, echoes: list[Echo], payload: bytes, calls: int) -> int:
        """Make ``calls`` calls, cycling through ``echoes``; return how many."""
        count = len(echoes)
        started = time.perf_counter()
        for index in range(calls):
            echoes[index % count](payload)
        self.elapsed_s += time.perf_counter() - started
        self.calls += calls
        return calls

    @property
    def mean_us(self) -> float:
        return self.elapsed_s / self.calls * 1e6


@dataclass
class CpuClock:
    """CPU seconds of this process and of some launched processes over timed blocks."""

    own_s: float = 0.0  # this process
    launched_s: float = 0.0  # the launched processes
    count: int = 0

    def time(self, processes: list[BotProcess], block: Callable[[], int]) -> None:
        """Run ``block`` (which returns how many calls or decisions it made), adding up the CPU used."""
        own, launched = time.process_time(), _cpu_of(processes)
        self.count += block()
        self.own_s += time.process_time() - own
        self.launched_s += _cpu_of(processes) - launched

    @property
    def mean_us(self) -> float:
        return (self.own_s + self.launched_s) / self.count * 1e6

    @property
    def own_us(self) -> float:
        return self.own_s / self.count * 1e6


def _cpu_of(processes: list[BotProcess]) -> float:
    """CPU seconds the launched processes (and everything below them) have used so far."""
    total = 0.0
    for process in processes:
        assert process.process is not None
        total += cpu_seconds(process.process.pid) or 0.0
    return total


@dataclass(frozen=True, slots=True)
class Figures:
    decisions: StepClock
    play_us_per_decision: float  # Referee.play() wall time (incl. chance, StartMatch) / decisions
    payload_bytes: int
    echo: EchoClock
    echo_round_robin: EchoClock
    decision_cpu: CpuClock
    echo_cpu: CpuClock

    @property
    def decision_us(self) -> float:
        return self.decisions.decision_s / self.decisions.decisions * 1e6

    @property
    def rpc_us(self) -> float:
        return self.decisions.rpc_us / self.decisions.decisions

    @property
    def chance_us(self) -> float:
        return self.decisions.chance_s / max(1, self.decisions.chance_steps) * 1e6


def typical_request_bytes(players: int, seed: int) -> int:
    """Mean serialized size of the decision requests of a default-action game (no network)."""
    plugin = get_game(GAME)
    chance = random.Random(derive_seed(seed, plugin.chance_stream))
    sizes: list[int] = []

    def default_measured(state: GameState) -> Any:
        seat = state.current_player
        context = DecisionContext("rpc-overhead-0", len(sizes) + 1, seat, 1000, 10_000)
        spec = plugin.decisions[plugin.decision_kind(state)]
        sizes.append(spec.encode_request(plugin.observe(state, seat), context).ByteSize())
        return plugin.default_action(state)

    play_to_end(plugin, [default_measured] * players, chance)
    return round(sum(sizes) / len(sizes))


def _launch(stack: ExitStack, command: str, log_path: Path, sandboxed: bool) -> BotProcess:
    """Start a process that ``stack`` stops and reaps on exit, whatever happens: in the sandbox,
    on a Unix socket, as a tournament launches bots, or with ``sandboxed=False`` on a TCP port."""
    process = BotProcess(command, log_path, env=_env(), sandboxed=sandboxed)
    stack.callback(process.stop)
    process.start()
    return process


def _connect_echo(stack: ExitStack, process: BotProcess) -> Echo:
    """A raw-bytes call to a launched echo server, once it accepts connections."""
    options = [("grpc.max_receive_message_length", MAX_MESSAGE_BYTES)]
    channel = stack.enter_context(grpc.insecure_channel(process.address, options=options))
    grpc.channel_ready_future(channel).result(timeout=STARTUP_TIMEOUT_S)
    # No (de)serializers: the call takes and returns raw bytes.
    echo: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(ECHO_METHOD)
    return echo


def measure(
    matches: int, players: int, seed: int, calls: int, log_dir: Path, sandboxed: bool = True
) -> Figures:
    """Play the matches, with a block of echo calls after each; return every figure."""
    plugin = get_game(GAME)
    payload_bytes = typical_request_bytes(players, seed)
    payload = bytes(range(256)) * (payload_bytes // 256) + bytes(payload_bytes % 256)
    steps, echo, round_robin = StepClock(), EchoClock(), EchoClock()
    decision_cpu, echo_cpu = CpuClock(), CpuClock()
    play_s = 0.0
    all_decisions = 0
    with ExitStack() as stack:
        # Every process is forked before this process makes any gRPC call: a fork while
        # channels are live can kill the child before it execs (grpc/grpc#43055).
        bots = [_launch(stack, BOT_COMMAND, log_dir / f"bot{i}.log", sandboxed) for i in range(players)]
        servers = [_launch(stack, ECHO_COMMAND, log_dir / f"echo{i}.log", sandboxed) for i in range(players)]
        for bot in bots:
            bot.wait_healthy(STARTUP_TIMEOUT_S)
        specs = [SeatSpec(name=f"trivial#{i + 1}", address=bot.address) for i, bot in enumerate(bots)]
        echoes = [_connect_echo(stack, server) for server in servers]
        for call in echoes:
            for _ in range(WARMUP_CALLS // players):
                if call(payload) != payload:
                    raise RuntimeError("the echo server changed the payload")
        block = max(1, calls // matches)
        for match in range(matches):
            steps.reset()

            def play(match: int = match) -> int:
                nonlocal play_s, all_decisions
                record = run_match(
                    plugin,
                    specs,
                    match_id=f"rpc-overhead-{match}",
                    seed=seed + match,
                    log_dir=log_dir,
                    on_step=steps,
                )
                faults = [fault for seat in record.seats for fault in seat.faults]
                if faults:
                    raise RuntimeError(f"match {match} had faults: {faults[:3]}")
                play_s += record.duration_s
                decisions = sum(1 for step in record.steps if step.kind != "chance")
                all_decisions += decisions
                return decisions

            decision_cpu.time(bots, play)
            echo_cpu.time(servers[:1], lambda: echo.time(echoes[:1], payload, block))
            round_robin.time(echoes, payload, block)
    return Figures(
        steps, play_s / all_decisions * 1e6, payload_bytes, echo, round_robin, decision_cpu, echo_cpu
    )


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=3, help="full matches to play (default 3)")
    parser.add_argument("--players", type=int, default=4, help="trivial-bot seats per match, 2-5 (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calls", type=int, default=6000, help="timed echo calls (default 6000)")
    parser.add_argument(
        "--no-sandbox",
        action="store_true",
        help="bots and echo servers unsandboxed, over TCP on 127.0.0.1 (default: sandboxed, Unix sockets)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _interrupt)  # unwind like Ctrl-C: every launched process is stopped
    try:
        with tempfile.TemporaryDirectory(prefix="rpc-overhead-") as tmp:
            figures = measure(
                args.matches, args.players, args.seed, args.calls, Path(tmp), sandboxed=not args.no_sandbox
            )
    finally:
        stop_all()  # measure() stops every process it starts; this is the backstop
    decision_us, echo_us = figures.decision_us, figures.echo.mean_us
    ratio = decision_us / echo_us
    cpu_decision_us, cpu_echo_us = figures.decision_cpu.mean_us, figures.echo_cpu.mean_us
    if args.json:
        print(
            json.dumps(
                {
                    "decision_us": decision_us,
                    "echo_us": echo_us,
                    "ratio": ratio,
                    "cpu_decision_us": cpu_decision_us,
                    "cpu_echo_us": cpu_echo_us,
                    "cpu_ratio": cpu_decision_us / cpu_echo_us,
                }
            )
        )
        return
    steps = figures.decisions
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(steps.kinds.items()))
    rr_us = figures.echo_round_robin.mean_us
    transport = "TCP on 127.0.0.1, unsandboxed" if args.no_sandbox else "Unix sockets, sandboxed"
    seats = f"{args.matches} matches x {args.players} trivial-bot seats"
    print(f"{seats}, gRPC over {transport}, seed {args.seed}")
    print(f"decisions timed        {steps.decisions:10d}   ({kinds})")
    print(f"us per decision        {decision_us:10.1f}   (referee, step to step)")
    print(f"  of which the RPC     {figures.rpc_us:10.1f}   (the steps' latency_us: call to reply)")
    print(f"    first of a turn    {_mean(steps.first_of_turn_us):10.1f}   (bot idle while others played)")
    print(f"    same seat again    {_mean(steps.same_seat_us):10.1f}   (the bot answered a moment ago)")
    print(f"  play() / decisions   {figures.play_us_per_decision:10.1f}   (incl. chance steps, StartMatch)")
    print(f"  us per chance step   {figures.chance_us:10.1f}   ({steps.chance_steps} left out)")
    print(f"echo payload bytes     {figures.payload_bytes:10d}   (mean serialized decision request)")
    print(f"us per echo call       {echo_us:10.1f}   ({figures.echo.calls} calls, one server, raw bytes)")
    print(f"  round-robin          {rr_us:10.1f}   (over {args.players} servers, one per seat)")
    print(f"ratio                  {ratio:10.2f}   (decision / echo; target <= 1.25)")
    print(f"  vs round-robin       {decision_us / rr_us:10.2f}")
    print(f"CPU us per decision    {cpu_decision_us:10.1f}   (referee + bots, whole matches)")
    print(f"  of which the referee {figures.decision_cpu.own_us:10.1f}")
    print(f"CPU us per echo call   {cpu_echo_us:10.1f}   (client + echo server)")
    print(f"  of which the client  {figures.echo_cpu.own_us:10.1f}")
    print(f"CPU ratio              {cpu_decision_us / cpu_echo_us:10.2f}   (less disturbed by other load)")


if __name__ == "__main__":
    main()
