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
    while len(argv) >= 2 and argv[0] in ("--processes", "--cgroup"):
        options[argv[0]], argv = argv[1], argv[2:]
    if len(argv) < 2 or argv[0] != "--":
        return None
    return options, argv[1:]


def main(argv: list[str]) -> int:
    parsed = _options(argv[3:]) if len(argv) >= 3 else None
    if parsed is None:
        print(
            "usage: guard.py PARENT_PID MEMORY_BYTES CPU_SECONDS [--processes N] [--cgroup DIR] -- COMMAND",
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
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"cannot run {command[0]}: {exc.strerror}", file=sys.stderr)
    return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
