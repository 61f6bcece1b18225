"""Start a command that dies with its parent and runs under resource limits.

    python guard.py PARENT_PID MEMORY_BYTES CPU_SECONDS [--processes N] [--cgroup DIR] -- COMMAND [ARG ...]

(``-`` for no limit; ``-`` as PARENT_PID skips the parent-death signal.)
``--processes`` caps the processes and threads of the command's user (inside a
sandbox's own user namespace, those of the bot alone); ``--cgroup`` moves the
process into that pids cgroup first, which holds for root too. The launcher
spawns bots through this small program rather than running Python between
fork and exec (``preexec_fn``): a process with live gRPC threads that forks
and runs Python in the child can abort the child before exec (grpc/grpc#43055),
whereas spawning a program needs no code in the child. It uses the standard
library only and runs as a plain script (``-I -S``), so it starts in a few
milliseconds.
"""

from __future__ import annotations

import ctypes
import os
import resource
import select
import signal
import sys

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


def _options(argv: list[str]) -> tuple[dict[str, str], list[str]] | None:
    """The ``--name value`` pairs before ``--``, and the command after it."""
    options: dict[str, str] = {}
    while len(argv) >= 2 and argv[0] in ("--processes", "--cgroup", "--lifeline"):
        options[argv[0]], argv = argv[1], argv[2:]
    if len(argv) < 2 or argv[0] != "--":
        return None
    return options, argv[1:]


def main(argv: list[str]) -> int:
    parsed = _options(argv[3:]) if len(argv) >= 3 else None
    if parsed is None:
        print(
            "usage: guard.py PARENT_PID MEMORY_BYTES CPU_SECONDS [--processes N] [--cgroup DIR] "
            "[--lifeline hold|watch] -- COMMAND",
            file=sys.stderr,
        )
        return 2
    (parent, memory, cpu), (options, command) = argv[:3], parsed
    if parent != "-" and not die_with_parent(int(parent)):
        return 1
    if "--cgroup" in options:
        with open(os.path.join(options["--cgroup"], "cgroup.procs"), "w") as procs:
            procs.write(str(os.getpid()))
    _limit(resource.RLIMIT_AS, memory)
    _limit(resource.RLIMIT_CPU, cpu, hard_extra=1)
    _limit(resource.RLIMIT_NPROC, options.get("--processes", "-"))
    lifeline = options.get("--lifeline")
    if lifeline == "hold":
        return _hold_lifeline(command)
    if lifeline == "watch":
        return _watch_lifeline(command)
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"cannot run {command[0]}: {exc.strerror}", file=sys.stderr)
    return 127


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


def _watch_lifeline(command: list[str]) -> int:
    """Run ``command`` inside the sandbox; end every process of the sandbox when the lifeline breaks."""
    child = os.fork()
    if child == 0:
        os.close(LIFELINE_FD)
        try:
            os.execvp(command[0], command)
        except OSError as exc:
            print(f"cannot run {command[0]}: {exc.strerror}", file=sys.stderr)
        os._exit(127)
    while True:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            return _exit_code(status)
        readable, _, _ = select.select([LIFELINE_FD], [], [], 0.2)
        if readable and not os.read(LIFELINE_FD, 1):
            os.kill(-1, signal.SIGKILL)  # every process of this PID namespace but this one
            return 137


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
