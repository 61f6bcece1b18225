"""Launch bot processes: a free port, captured output, resource limits, and a
guaranteed kill-and-reap.

A launched bot runs in a sandbox (:mod:`server.sandbox`) unless told otherwise:
it listens on a Unix socket whose address it finds in ``SMTOURNEY_ADDRESS`` (and
in place of ``{address}`` in its command), or on the TCP port in ``SMTOURNEY_PORT``
(and in place of ``{port}``) of the sandbox's own loopback, which the sandbox relays
to that socket. Without the sandbox its address is ``127.0.0.1`` and a free port.
A command whose first word is ``python`` or ``python3`` runs with the referee's
own interpreter, so bots see the same installed packages. It runs in its own process group
with ``RLIMIT_AS``/``RLIMIT_CPU`` limits, and with the parent-death signal set
to SIGKILL (both set by :mod:`server.guard` just before exec), so it dies with
the referee even if the referee is SIGKILLed. Its output reaches its log through
:class:`~server.bot_output.CappedOutput`, at most ``OUTPUT_CAP_BYTES`` per match.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO

import grpc
from grpc_health.v1 import health_pb2

from sdk.serve import ADDRESS_ENV, PORT_ENV

from . import guard
from .bot_output import CappedOutput
from .sandbox import ADDRESS as SANDBOX_ADDRESS
from .sandbox import PORT as SANDBOX_PORT
from .sandbox import Sandbox, SandboxLimits, absolute_words, find_program

_LIVE: set[BotProcess] = set()

HEALTH_POLL_FIRST_S = 0.005
HEALTH_POLL_MAX_S = 0.1
_FAST_RECONNECT: list[tuple[str, int]] = [
    # gRPC waits up to a second before reconnecting after a refused connection; a bot
    # that is starting refuses a few, so retry soon.
    ("grpc.initial_reconnect_backoff_ms", 5),
    ("grpc.min_reconnect_backoff_ms", 5),
    ("grpc.max_reconnect_backoff_ms", 100),
]


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits of a bot process (``None`` = unlimited)."""

    memory_mb: int | None = 2048
    cpu_seconds: int | None = None
    sandbox: SandboxLimits = field(default_factory=SandboxLimits)


OUTPUT_LINES = 3
"""Lines of a bot's output that a failed start-up quotes: a traceback's last frame and its error."""
OUTPUT_QUOTE = "; its last output: "
"""What comes before the quoted output in a failed start-up's reason."""
_OUTPUT_TAIL_BYTES = 16 * 1024
_OUTPUT_LINE_CHARS = 300


class StartupError(RuntimeError):
    """The bot did not become healthy (it exited, or the start-up timeout passed): why, and the
    last lines of its output, which usually say what went wrong."""

    def __init__(self, reason: str, output: Sequence[str] = ()) -> None:
        self.reason, self.output = reason, tuple(output)
        quoted = f"{OUTPUT_QUOTE}{' | '.join(self.output)}" if self.output else ""
        super().__init__(f"{reason}{quoted}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _placed(words: Sequence[str], address: str, port: int) -> list[str]:
    """``words`` with ``{address}`` and ``{port}`` replaced by where the bot is to listen."""
    return [w.replace("{port}", str(port)).replace("{address}", address) for w in words]


def _guarded(
    argv: list[str], limits: Limits, cgroup: Path | None = None, sandboxed: bool = False
) -> list[str]:
    """``argv`` run through :mod:`server.guard`: parent-death signal and limits, set before exec
    (and for a sandbox, its cgroup and the lifeline its inside watches)."""
    memory = "-" if limits.memory_mb is None else str(limits.memory_mb * 1024 * 1024)
    cpu = "-" if limits.cpu_seconds is None else str(limits.cpu_seconds)
    options = [] if cgroup is None else ["--cgroup", str(cgroup)]
    options += ["--lifeline", "hold"] if sandboxed else []
    return [sys.executable, "-I", "-S", guard.__file__, str(os.getpid()), memory, cpu, *options, "--", *argv]


class BotProcess:
    """One launched bot. Use as a context manager, or call :meth:`stop`."""

    def __init__(
        self,
        command: str | Sequence[str],
        log_path: Path,
        *,
        env: Mapping[str, str] | None = None,
        limits: Limits = Limits(),
        cwd: Path | None = None,
        sandboxed: bool = True,
        program_dir: Path | None = None,
    ) -> None:
        words = shlex.split(command) if isinstance(command, str) else list(command)
        if words and words[0] in {"python", "python3"}:
            words[0] = sys.executable
        self.log_path = log_path
        self.limits = limits
        self.cwd = cwd
        self.sandbox: Sandbox | None = None
        if sandboxed:
            where = cwd or Path.cwd()
            program = find_program(words, {**os.environ, **(env or {})}, where)
            if program_dir is not None:
                program = type(program)(program_dir, program_dir)
            self.sandbox = Sandbox(program, env or {}, limits.sandbox)
            self.address = self.sandbox.address
            self.argv = absolute_words(_placed(words, SANDBOX_ADDRESS, SANDBOX_PORT), where)
            # bwrap runs with the bot's own environment: its /proc/1/environ is visible inside.
            self.env = dict(self.sandbox.env)
        else:
            port = free_port()
            self.address = f"127.0.0.1:{port}"
            self.argv = _placed(words, self.address, port)
            self.env = {**os.environ, **(env or {}), PORT_ENV: str(port), ADDRESS_ENV: self.address}
        self.process: subprocess.Popen[bytes] | None = None
        self.output: CappedOutput | None = None
        self._log: IO[bytes] | None = None
        self._output_from = 0  # where this launch's output starts in the log

    def start(self) -> None:
        """Spawn the process (stdout and stderr appended to the log file)."""
        if not self.argv or not self._program_found():
            raise FileNotFoundError(f"no such program: {self.argv[0] if self.argv else '(empty command)'}")
        argv, cgroup = self.argv, None
        if self.sandbox is not None:
            argv, cgroup = self.sandbox.wrap(self.argv), self.sandbox.cgroup
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("ab")
        self._output_from = self._log.tell()
        read, write = os.pipe()
        try:
            self.process = subprocess.Popen(
                _guarded(argv, self.limits, cgroup, sandboxed=self.sandbox is not None),
                stdin=subprocess.DEVNULL,
                stdout=write,
                stderr=write,
                env=self.env,
                cwd=self.cwd,
                start_new_session=True,
            )
        except OSError:
            os.close(read)
            self._log.close()
            raise
        finally:
            os.close(write)  # the bot's processes hold the only writing ends: the pipe ends with them
        self.output = CappedOutput(read, self._log)
        _LIVE.add(self)

    def _program_found(self) -> bool:
        """Whether the command's program exists where it will run: a relative path left relative (not
        found from the working folder) is looked for where the sandbox starts, its program folder."""
        first = self.argv[0]
        workdir = None if self.sandbox is None else self.sandbox.program.workdir
        if workdir is not None and "/" in first and not first.startswith("/"):
            return os.access(workdir / first, os.X_OK) and (workdir / first).is_file()
        return shutil.which(first, path=self.env.get("PATH")) is not None

    def last_output(self, lines: int = OUTPUT_LINES) -> list[str]:
        """The last non-blank lines this launch wrote to its log (not what earlier ones left there)."""
        if self.output is not None and self.exit_code() is not None:
            self.output.drain(timeout_s=0.5)  # a dead bot's last words may still be in the pipe
        try:
            with self.log_path.open("rb") as log:
                size = log.seek(0, os.SEEK_END)
                log.seek(max(self._output_from, size - _OUTPUT_TAIL_BYTES))
                text = log.read().decode("utf-8", "replace")
        except OSError:
            return []
        found = [line.strip() for line in text.splitlines() if line.strip()]
        return [line[:_OUTPUT_LINE_CHARS] for line in found[-lines:]]

    def exit_code(self) -> int | None:
        """The exit status if the process has ended (negative: killed by that signal)."""
        return None if self.process is None else self.process.poll()

    def wait_exit(self, timeout_s: float) -> int | None:
        """The exit status, waiting up to ``timeout_s`` for a dying process to finish."""
        if self.process is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout_s)
        return self.process.poll()

    def wait_healthy(self, timeout_s: float) -> None:
        """Block until the bot's health check says SERVING; raise StartupError if it never does.

        Polls from a short first interval, doubling up to ``HEALTH_POLL_MAX_S``: an interpreter
        needs a moment to start, and a bot already up should not wait for a long first sleep.
        """
        deadline = time.monotonic() + timeout_s
        with grpc.insecure_channel(self.address, options=_FAST_RECONNECT) as channel:
            # The same call HealthStub.Check makes (its type stubs do not declare it).
            check = channel.unary_unary(
                "/grpc.health.v1.Health/Check",
                request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
                response_deserializer=health_pb2.HealthCheckResponse.FromString,
            )
            interval = HEALTH_POLL_FIRST_S
            while True:
                code = self.exit_code()
                if code is not None:
                    raise StartupError(
                        f"exited with status {code} before becoming healthy", self.last_output()
                    )
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise StartupError(f"not healthy (SERVING) within {timeout_s:g} s", self.last_output())
                try:
                    reply = check(health_pb2.HealthCheckRequest(service=""), timeout=min(0.5, remaining))
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                except grpc.RpcError as exc:
                    if exc.code() == grpc.StatusCode.UNIMPLEMENTED:  # no health service: waiting is vain
                        raise StartupError(
                            "the health check (grpc.health.v1.Health/Check) answered UNIMPLEMENTED: "
                            "serve the standard health service"
                        ) from None
                time.sleep(min(interval, max(0.0, deadline - time.monotonic())))
                interval = min(2 * interval, HEALTH_POLL_MAX_S)

    def terminate(self) -> None:
        """Send SIGTERM to the process group if the bot still runs; :meth:`stop` then finishes it."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)

    def stop(self, grace_s: float = 1.0) -> None:
        """SIGTERM the process group, SIGKILL it after ``grace_s``, and reap it."""
        process = self.process
        if process is not None:
            if process.poll() is None:  # a bot that already exited costs no grace period
                self.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(grace_s)
            # The group may hold children even after the leader is gone.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            _await_empty_group(process.pid)
        if self.output is not None:
            self.output.drain()
        if self._log is not None:
            self._log.close()
            self._log = None
        if self.sandbox is not None:
            self.sandbox.close()
        _LIVE.discard(self)

    def __enter__(self) -> BotProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _await_empty_group(group: int, timeout_s: float = 2.0) -> None:
    """Wait until no process of ``group`` runs any more: a sandbox's processes die a moment after
    its leader, as the kernel ends its PID namespace. (Their zombies, left to init, do not count.)"""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            return
        if not _runs_in_group(group):
            return
        time.sleep(0.005)


def _runs_in_group(group: int) -> bool:
    """Whether a process of ``group`` other than a zombie exists."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                state, _, pgrp = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[:3]
            except (OSError, ValueError):
                continue
            if int(pgrp) == group and state != "Z":
                return True
    return False


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def interrupt_on_sigterm() -> None:
    """Make SIGTERM unwind like Ctrl-C, so every launched bot is killed and reaped on the way out."""
    signal.signal(signal.SIGTERM, _raise_interrupt)


def stop_all() -> None:
    """Kill and reap every bot this process launched and has not stopped yet."""
    for bot in list(_LIVE):
        bot.stop(grace_s=0.2)
