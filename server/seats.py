"""Seats of a match: what each one is (a command to launch or an address to
reach) and bringing them up — launched, healthy, greeted — before play."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from sdk.games.plugin import GamePlugin
from sdk.protocol import PROTOCOL_VERSION

from .bot_errors import describe_status
from .bot_output import output_fault
from .client import BotClient, BotConnection, Tls
from .inprocess import InProcessClient
from .launcher import BotProcess, Limits, StartupError
from .record import SeatRecord


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """An entrant's bot: a ``command`` to launch, an ``address`` to connect to, or a trusted
    Python ``bot_class`` (``module:Class``) to call in the referee's process."""

    name: str
    command: str | None = None
    address: str | None = None
    bot_class: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    tls: Tls | None = None
    token: str | None = None
    fresh_process: bool = False
    """Launch a new process for every match rather than keep one between matches."""
    sandbox: bool = True
    """A launched bot runs in the sandbox (server/sandbox.py) unless this is False."""
    program_dir: Path | None = None
    """The directory a sandboxed bot may read; default: its script's or module's."""
    withdrawn: str | None = None
    """Why the entrant is not started at all (it failed the pre-flight check): its seats are forfeited."""

    def __post_init__(self) -> None:
        if [self.command, self.address, self.bot_class].count(None) != 2:
            raise ValueError(f"seat {self.name!r} needs exactly one of command, address or bot_class")


@dataclass
class Seat:
    """A seat during a match: its record, and its bot while the bot is in play."""

    spec: SeatSpec
    record: SeatRecord
    client: BotConnection | None = None
    process: BotProcess | None = None
    bank_ms: float = 0.0
    decisions: int = 0  # this seat's decisions so far: its decision ids count from 1

    @property
    def active(self) -> bool:
        """Still played by its own bot (not forfeited)."""
        return not self.record.forfeited

    def fault(self, message: str) -> None:
        self.record.faults.append(message)

    def forfeit(self, reason: str) -> None:
        """From now on the referee's fallback plays this seat; it ranks last."""
        if not self.record.forfeited:
            self.record.forfeited = True
            self.record.forfeit_reason = reason
            self.fault(f"forfeited: {reason}")

    @property
    def log(self) -> Path | None:
        """Where the seat's launched bot writes its output (None for a bot reached by address)."""
        return None if self.process is None else self.process.log_path

    def unreachable_reason(self, details: str) -> str:
        """Why the bot cannot be reached, with its exit status when it was launched."""
        if self.process is not None:
            code = self.process.wait_exit(timeout_s=0.5)
            if code is not None:
                return f"bot process exited with status {code}"
        return f"unreachable: {details}"


@contextlib.contextmanager
def open_seats(
    plugin: GamePlugin,
    specs: Sequence[SeatSpec],
    *,
    log_dir: Path,
    match_id: str,
    limits: Limits,
    startup_timeout_s: float,
    bank_ms: int,
) -> Iterator[list[Seat]]:
    """Launch and connect every seat; a seat that cannot start is forfeited, not fatal.

    On exit every launched process is killed and reaped and every channel closed,
    whatever happened in between.
    """
    seats = new_seats(specs, bank_ms)
    try:
        for seat in seats:
            if seat.spec.command is not None and seat.active:
                launch(seat, log_path(log_dir, match_id, seat), limits)
        connect_all(plugin, seats, startup_timeout_s)
        yield seats
    finally:
        note_output(seats)
        release(seats)


def new_seats(specs: Sequence[SeatSpec], bank_ms: int) -> list[Seat]:
    """The seats of a match, a withdrawn entrant's forfeited before anything is launched."""
    seats = [Seat(spec, SeatRecord(seat=i, name=spec.name), bank_ms=bank_ms) for i, spec in enumerate(specs)]
    for seat in seats:
        if seat.spec.withdrawn is not None:
            seat.forfeit(f"withdrawn: {seat.spec.withdrawn}")
    return seats


def log_path(log_dir: Path, match_id: str, seat: Seat) -> Path:
    """Where a bot launched for ``seat`` of ``match_id`` writes its output."""
    return log_dir / f"{match_id}.seat{seat.record.seat}.{file_safe_name(seat.spec.name)}.log"


def launch(seat: Seat, log: Path, limits: Limits) -> None:
    """Spawn the seat's command (not yet waited for); a command that cannot start forfeits the seat.

    Call it from the thread that lives as long as the bot should: the bot's parent-death
    signal fires when the thread that spawned it ends.
    """
    assert seat.spec.command is not None
    try:
        seat.process = BotProcess(
            seat.spec.command,
            log,
            env=seat.spec.env,
            limits=limits,
            sandboxed=seat.spec.sandbox,
            program_dir=seat.spec.program_dir,
        )
        seat.process.start()
    except (OSError, ValueError) as exc:
        seat.forfeit(f"cannot launch {seat.spec.command!r}: {exc}")


def connect_all(plugin: GamePlugin, seats: Sequence[Seat], startup_timeout_s: float) -> None:
    """Wait for, connect and greet every seat in play not connected yet, all at the same time
    (in-process seats first, one after another: they have nothing to wait for)."""
    for seat in seats:
        if seat.active and seat.spec.bot_class is not None:
            _connect(plugin, seat, startup_timeout_s)
    waiting = [seat for seat in seats if seat.active and seat.client is None]
    if len(waiting) <= 1:
        for seat in waiting:
            _connect(plugin, seat, startup_timeout_s)
        return
    pool = ThreadPoolExecutor(max_workers=len(waiting), thread_name_prefix="seat")
    try:
        for future in [pool.submit(_connect, plugin, seat, startup_timeout_s) for seat in waiting]:
            future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def note_output(seats: Sequence[Seat]) -> None:
    """A fault on each seat whose launched bot wrote more output in the match than its log takes."""
    for seat in seats:
        output = None if seat.process is None else seat.process.output
        if output is not None and output.dropped:
            seat.fault(output_fault(output.cap, output.dropped))


def release(seats: Sequence[Seat]) -> None:
    """Close every seat's channel and stop its launched bot."""
    for seat in seats:
        if seat.client is not None:
            seat.client.close()
    stop_together([seat.process for seat in seats if seat.process is not None])


def stop_together(processes: Sequence[BotProcess], grace_s: float = 1.0) -> None:
    """Stop bots at once: SIGTERM to all, one shared grace period, then kill and reap each."""
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + grace_s
    for process in processes:
        process.stop(grace_s=max(0.0, deadline - time.monotonic()))


def _connect(plugin: GamePlugin, seat: Seat, startup_timeout_s: float) -> None:
    if seat.spec.bot_class is not None:
        try:
            seat.client = InProcessClient(seat.spec.bot_class, plugin)
        except Exception as exc:  # the bot's module or constructor failed: that seat's fault only
            seat.forfeit(f"cannot load {seat.spec.bot_class}: {type(exc).__name__}: {exc}")
            return
    else:
        if seat.process is not None:
            try:
                seat.process.wait_healthy(startup_timeout_s)
            except StartupError as exc:
                seat.forfeit(f"start-up failed: {exc}")
                return
            address = seat.process.address
        else:
            assert seat.spec.address is not None
            address = seat.spec.address
        seat.client = BotClient(address, plugin, tls=seat.spec.tls, token=seat.spec.token)
    try:
        hello = seat.client.hello()
    except grpc.RpcError as exc:
        seat.forfeit(f"Hello failed: {describe_status(exc, seat.log)}")
        return
    seat.record.bot = f"{hello.name} {hello.version}".strip()
    if hello.protocol_version != PROTOCOL_VERSION:
        seat.forfeit(f"speaks protocol {hello.protocol_version}, the referee speaks {PROTOCOL_VERSION}")
    elif plugin.name not in hello.games:
        seat.forfeit(f"does not play {plugin.name} (plays: {', '.join(hello.games) or 'nothing'})")


def file_safe_name(name: str) -> str:
    """``name`` as it appears in a log file name: letters, digits, `-`, `_` and `.` kept, the rest `_`."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
