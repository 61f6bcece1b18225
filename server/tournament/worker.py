"""A worker process of :class:`~server.tournament.pool.WorkerPool`: plays the matches it is sent,
one at a time, and sends back each result, until it is told to stop or its parent goes.
Its :class:`~server.tournament.jobs.MatchPlayer` keeps launched bots up between matches
and stops them when the worker ends. A thread reads what the parent sends, so a
:class:`~server.tournament.jobs.KeepOnly` takes effect at once, even in the middle of a match.

    python -m server.tournament.worker PARENT_PID SOCKET_FD

It is a program of its own rather than a ``multiprocessing`` child, so it imports only
what playing a match needs (not the command line that started the tournament), and
nothing of it outlives a SIGKILL: no semaphore, no helper process.
"""

from __future__ import annotations

import queue
import signal
import sys
import threading
from multiprocessing.connection import Connection
from types import FrameType

from server.guard import die_with_parent

from .jobs import KeepOnly, MatchJob, MatchPlayer


def _unwind(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    parent, descriptor = int(argv[0]), int(argv[1])
    if not die_with_parent(parent):  # the parent died while this worker was starting
        return 1
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent decides
    signal.signal(signal.SIGTERM, _unwind)  # stops the match, and with it every bot of the match
    connection = Connection(descriptor)
    player = MatchPlayer()
    jobs: queue.Queue[MatchJob | None] = queue.Queue()
    threading.Thread(target=_read, args=(connection, player, jobs), name="worker-reader", daemon=True).start()
    try:
        while (job := jobs.get()) is not None:
            connection.send(player.play(job))
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    finally:
        try:
            player.close()
        finally:
            connection.close()
    return 0


def _read(connection: Connection, player: MatchPlayer, jobs: queue.Queue[MatchJob | None]) -> None:
    """Queue the jobs the parent sends, apply its KeepOnly at once; None once it says stop or goes."""
    try:
        while (message := connection.recv()) is not None:
            if isinstance(message, KeepOnly):
                player.keep_only(message.entrants)
            else:
                jobs.put(message)
    except (EOFError, OSError):
        pass
    jobs.put(None)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
