"""Start a command that dies with its parent and runs under resource limits.

    python guard.py PARENT_PID MEMORY_BYTES CPU_SECONDS -- COMMAND [ARG ...]

(``-`` for no limit.) The launcher spawns bots through this small program
rather than running Python between fork and exec (``preexec_fn``): a process
with live gRPC threads that forks and runs Python in the child can abort the
child before exec (grpc/grpc#43055), whereas spawning a program needs no code
in the child. It uses the standard library only and runs as a plain script
(``-I -S``), so it starts in a few milliseconds.
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


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[3] != "--":
        print("usage: guard.py PARENT_PID MEMORY_BYTES CPU_SECONDS -- COMMAND [ARG ...]", file=sys.stderr)
        return 2
    parent, memory, cpu, command = int(argv[0]), argv[1], argv[2], argv[4:]
    if not die_with_parent(parent):
        return 1
    _limit(resource.RLIMIT_AS, memory)
    _limit(resource.RLIMIT_CPU, cpu, hard_extra=1)
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"cannot run {command[0]}: {exc.strerror}", file=sys.stderr)
    return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
