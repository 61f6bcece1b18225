"""Start a command that dies with its parent and runs under resource limits.

    python guard.py PARENT_PID MEMORY_BYTES CPU_SECONDS [--processes N] [--cgroup DIR]
        [--lifeline hold|watch] [--relay-socket PATH --relay-port PORT] [--user UID:GID] -- COMMAND [ARG ...]

(``-`` for no limit; ``-`` as PARENT_PID skips the parent-death signal.)
``--processes`` caps the processes and threads of the command's user (inside a
sandbox's own user namespace, those of the bot alone); ``--cgroup`` moves the
process into that pids cgroup first, which holds for root too. Inside a
sandbox, ``--relay-socket`` and ``--relay-port`` serve a bot that listens on TCP
rather than on the sandbox's Unix socket (:class:`TcpRelay`), and ``--user`` makes
the guard (and everything it starts) that unprivileged user and group, with no
supplementary groups, before anything else runs (a sandbox started by root). The launcher
spawns bots through this small program rather than running Python between
fork and exec (``preexec_fn``): a process with live gRPC threads that forks
and runs Python in the child can abort the child before exec (grpc/grpc#43055),
whereas spawning a program needs no code in the child. It uses the standard
library only and runs as a plain script (``-I -S``), so it starts in a few
milliseconds.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import selectors
import signal
import socket
import sys
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> bool:
    """Arm SIGKILL on the death of this process's parent; False if ``parent`` is already gone.

    The check closes the race where the parent dies before the signal is armed.
    """
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    return os.getppid() == parent


def _limit(which: int, value: str, hard_extra: int = 0) -> None:
    if value != "-":
        resource.setrlimit(which, (int(value), int(value) + hard_extra))


_OPTIONS = ("--processes", "--cgroup", "--lifeline", "--relay-socket", "--relay-port", "--user")


def _options(argv: list[str]) -> tuple[dict[str, str], list[str]] | None:
    """The ``--name value`` pairs before ``--``, and the command after it."""
    options: dict[str, str] = {}
    while len(argv) >= 2 and argv[0] in _OPTIONS:
        options[argv[0]], argv = argv[1], argv[2:]
    if len(argv) < 2 or argv[0] != "--":
        return None
    return options, argv[1:]


def main(argv: list[str]) -> int:
    parsed = _options(argv[3:]) if len(argv) >= 3 else None
    if parsed is None:
        print(
            "usage: guard.py PARENT_PID MEMORY_BYTES CPU_SECONDS [--processes N] [--cgroup DIR] "
            "[--lifeline hold|watch] [--relay-socket PATH --relay-port PORT] [--user UID:GID] -- COMMAND",
            file=sys.stderr,
        )
        return 2
    (parent, memory, cpu), (options, command) = argv[:3], parsed
    if parent != "-" and not die_with_parent(int(parent)):
        return 1
    if "--cgroup" in options:
        with open(os.path.join(options["--cgroup"], "cgroup.procs"), "w") as procs:
            procs.write(str(os.getpid()))
    if "--user" in options:
        _become(options["--user"])
    _limit(resource.RLIMIT_AS, memory)
    _limit(resource.RLIMIT_CPU, cpu, hard_extra=1)
    _limit(resource.RLIMIT_NPROC, options.get("--processes", "-"))
    lifeline = options.get("--lifeline")
    if lifeline == "hold":
        return _hold_lifeline(command)
    if lifeline == "watch":
        relay = None
        if "--relay-socket" in options and "--relay-port" in options:
            relay = TcpRelay(options["--relay-socket"], int(options["--relay-port"]))
        return _watch_lifeline(command, relay)
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"cannot run {command[0]}: {exc.strerror}", file=sys.stderr)
    return 127


def _become(user: str) -> None:
    """Become ``UID:GID`` for good: group first (it needs the privilege the user change drops), no
    supplementary groups; the capabilities go with the root user."""
    uid, _, gid = user.partition(":")
    os.setgroups([])
    os.setresgid(int(gid), int(gid), int(gid))
    os.setresuid(int(uid), int(uid), int(uid))


LIFELINE_FD = 3
"""Where the sandbox's inside finds the lifeline: the reading end of a pipe whose writing end only
the guard outside holds."""


def _exit_code(status: int) -> int:
    return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


def _hold_lifeline(command: list[str]) -> int:
    """Run ``command`` (bwrap) as a child, holding the lifeline's writing end until this guard dies.

    bwrap arms the parent-death signal of the sandbox's first process only after creating it, and
    closes descriptors it does not know of: so the guard, which dies with the referee, keeps the
    lifeline itself, and the sandbox's inside ends everything once it breaks.
    """
    read, write = os.pipe()
    child = os.fork()  # no threads here: forking is safe
    if child == 0:
        os.close(write)
        if read != LIFELINE_FD:
            os.dup2(read, LIFELINE_FD)
            os.close(read)
        os.set_inheritable(LIFELINE_FD, True)
        try:
            os.execvp(command[0], command)
        except OSError as exc:
            print(f"cannot run {command[0]}: {exc.strerror}", file=sys.stderr)
        os._exit(127)
    os.close(read)
    return _exit_code(os.waitpid(child, 0)[1])


def _watch_lifeline(command: list[str], relay: TcpRelay | None = None) -> int:
    """Run ``command`` inside the sandbox; end every process of the sandbox when the lifeline breaks.

    Meanwhile relay the referee's connections to a bot that listens on TCP, if ``relay`` says so.
    """
    child = os.fork()
    if child == 0:
        os.close(LIFELINE_FD)
        try:
            os.execvp(command[0], command)
        except OSError as exc:
            print(f"cannot run {command[0]}: {exc.strerror}", file=sys.stderr)
        os._exit(127)
    selector = selectors.DefaultSelector()
    selector.register(LIFELINE_FD, selectors.EVENT_READ, None)
    while True:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            return _exit_code(status)
        looking = relay is not None and relay.looking
        for key, mask in selector.select(TcpRelay.LOOK_INTERVAL_S if looking else 0.2):
            if key.data is not None:
                key.data(key.fileobj, mask)
            elif not os.read(LIFELINE_FD, 1):
                os.kill(-1, signal.SIGKILL)  # every process of this PID namespace but this one
                return 137
        if relay is not None and relay.looking:
            relay.look(selector)


Handler = Callable[[socket.socket, int], None]
_TCP_LISTEN = "0A"
"""The state of a listening socket in /proc/net/tcp."""
_V4_MAPPED = "0000000000000000FFFF0000"
"""How an IPv4-mapped IPv6 address (::ffff:a.b.c.d) starts in /proc/net/tcp6."""


def tcp_listener(port: int) -> tuple[socket.AddressFamily, str] | None:
    """Where to reach whatever listens on ``port`` in this network namespace, if anything does:
    an IPv4 listener (or an IPv6 one on an IPv4-mapped address) at 127.0.0.1, others at ::1."""
    for table, family in (("/proc/net/tcp", socket.AF_INET), ("/proc/net/tcp6", socket.AF_INET6)):
        with contextlib.suppress(OSError), open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                host, _, local_port = fields[1].partition(":")
                if fields[3] == _TCP_LISTEN and int(local_port, 16) == port:
                    if family == socket.AF_INET6 and not host.startswith(_V4_MAPPED):
                        return socket.AF_INET6, "::1"
                    return socket.AF_INET, "127.0.0.1"
    return None


class TcpRelay:
    """The sandbox's Unix socket, served for a bot that listens on TCP at its port instead.

    The referee reaches every sandboxed bot at the Unix socket. A bot that listens on TCP
    (``SMTOURNEY_PORT``) does so on the sandbox's own loopback, which nothing outside can reach:
    once it listens and has not made the socket itself, the relay makes the socket and forwards
    each connection to the bot's port. A bot that makes the socket itself is reached directly.
    """

    LOOK_INTERVAL_S = 0.01
    """How often the relay looks for the bot's listening socket while the bot starts."""

    def __init__(self, socket_path: str, port: int) -> None:
        self.socket_path, self.port = socket_path, port
        self.target: tuple[socket.AddressFamily, str] | None = None
        self.looking = True

    def look(self, selector: selectors.BaseSelector) -> None:
        """Start relaying if the bot listens on its port; stop looking once the bot has its own socket."""
        if os.path.exists(self.socket_path):
            self.looking = False
            return
        self.target = tcp_listener(self.port)
        if self.target is None:
            return
        self.looking = False
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(self.socket_path)
        except OSError:  # the bot made the socket after all, a moment ago
            listener.close()
            return
        listener.listen(16)
        listener.setblocking(False)
        selector.register(listener, selectors.EVENT_READ, self._accept_into(selector))
        print(f"relaying {self.socket_path} to port {self.port}", file=sys.stderr, flush=True)

    def _accept_into(self, selector: selectors.BaseSelector) -> Handler:
        def accept(listener: socket.socket, mask: int) -> None:
            with contextlib.suppress(BlockingIOError):
                outside, _ = listener.accept()
                assert self.target is not None
                family, host = self.target
                inside = socket.socket(family, socket.SOCK_STREAM)
                try:
                    inside.connect((host, self.port))
                except OSError:  # the bot stopped listening: the referee sees a closed connection
                    outside.close()
                    inside.close()
                    return
                inside.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                RelayedConnection(selector, outside, inside)

        return accept


class RelayedConnection:
    """One connection relayed both ways, with back-pressure: while bytes wait to be written to one
    end, the relay stops reading from the other."""

    CHUNK = 256 * 1024
    FLUSH_TIMEOUT_S = 1.0

    def __init__(
        self, selector: selectors.BaseSelector, outside: socket.socket, inside: socket.socket
    ) -> None:
        self.selector = selector
        self.peer = {outside: inside, inside: outside}
        self.waiting: dict[socket.socket, bytes] = {outside: b"", inside: b""}
        """Bytes read from one end, not yet written to this one."""
        self.closed = False
        """Both ends closed: an event for the other end, from the same ``select``, is stale."""
        for end in self.peer:
            end.setblocking(False)
            selector.register(end, selectors.EVENT_READ, self.ready)

    def ready(self, end: socket.socket, mask: int) -> None:
        if self.closed:
            return
        try:
            if mask & selectors.EVENT_WRITE:
                self._flush(end)
            if mask & selectors.EVENT_READ:
                data = end.recv(self.CHUNK)
                if not data:
                    self._close(flush_to=self.peer[end])
                    return
                self.waiting[self.peer[end]] += data
                self._flush(self.peer[end])
        except BlockingIOError:
            pass
        except OSError:
            self._close(flush_to=None)
            return
        for sock in self.peer:
            self._watch(sock)

    def _flush(self, end: socket.socket) -> None:
        if self.waiting[end]:
            sent = end.send(self.waiting[end])
            self.waiting[end] = self.waiting[end][sent:]

    def _watch(self, end: socket.socket) -> None:
        """Read from ``end`` unless its peer has bytes waiting; write to it while it has some."""
        events = 0 if self.waiting[self.peer[end]] else selectors.EVENT_READ
        events |= selectors.EVENT_WRITE if self.waiting[end] else 0
        registered = end in self.selector.get_map()
        if events and registered:
            self.selector.modify(end, events, self.ready)
        elif events:
            self.selector.register(end, events, self.ready)
        elif registered:
            self.selector.unregister(end)

    def _close(self, flush_to: socket.socket | None) -> None:
        """Deliver what is left for the end still open (briefly), then close both ends."""
        if flush_to is not None and self.waiting[flush_to]:
            with contextlib.suppress(OSError):
                flush_to.settimeout(self.FLUSH_TIMEOUT_S)
                flush_to.sendall(self.waiting[flush_to])
        self.closed = True
        for end in self.peer:
            with contextlib.suppress(KeyError):
                self.selector.unregister(end)
            end.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
