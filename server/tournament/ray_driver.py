"""The Ray side of a run, in a process of its own: :class:`~.ray_executor.RayExecutor` starts it,
sends it jobs and reads back what happens.

    python -m server.tournament.ray_driver PARENT_PID SOCKET_FD WORKERS (--address ADDRESS | --own-folder DIR)

Ray's core worker ends the process that joined a cluster with a C++ log line of its own when it
loses its raylet while connecting; here that process is this one, so the run itself lives on to
say, in its own words, what is stored and how to resume. This process's output (Ray's included)
goes to a log file; it dies with its parent, and Ray's processes die with it.

What it sends (:mod:`.ray_messages`): ``Started`` once the actors are asked for (or ``Failed``),
then a ``Finished`` per job, ``Replayed`` and ``Noticed`` as they happen, and ``Failed`` when it
cannot go on. What it reads: jobs, :class:`~.jobs.KeepOnly`, and None to
stop; SIGTERM stops it at once (its actors, and so their bots, killed).
"""

from __future__ import annotations

import queue
import signal
import sys
import threading
from multiprocessing.connection import Connection
from pathlib import Path
from types import FrameType

from server.guard import die_with_parent

from .executor import ExecutorError
from .jobs import KeepOnly, MatchJob
from .ray_actors import RayActors
from .ray_messages import Failed, Finished, Noticed, Replayed, Started

__all__ = ["main"]

POLL_S = 0.5
"""Longest wait for a result before new jobs and KeepOnly messages are taken in."""


Command = MatchJob | KeepOnly | None


def _unwind(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    parent, descriptor, workers = int(argv[0]), int(argv[1]), int(argv[2])
    address = argv[4] if argv[3] == "--address" else None
    own_folder = Path(argv[4]) if argv[3] == "--own-folder" else None
    if not die_with_parent(parent):  # the run ended while this process was starting
        return 1
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent decides
    signal.signal(signal.SIGTERM, _unwind)  # stops the actors, and with them every bot they run
    connection = Connection(descriptor)
    try:
        actors = RayActors(
            workers,
            address,
            own_folder,
            on_replay=lambda match_id, why: connection.send(Replayed(match_id, why)),
            on_notice=lambda line: connection.send(Noticed(line)),
        )
    except ExecutorError as exc:
        connection.send(Failed(str(exc)))
        return 1
    except KeyboardInterrupt:
        return 1
    graceful = False
    try:
        connection.send(Started())
        graceful = _serve(connection, actors)
    except ExecutorError as exc:
        connection.send(Failed(str(exc)))
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # already stopping: a SIGTERM would cut it short
        actors.close(graceful=graceful)
        connection.close()
    return 0 if graceful else 1


def _serve(connection: Connection, actors: RayActors) -> bool:
    """Play what the parent sends until it says stop (True) or goes away (False)."""
    commands: queue.Queue[Command] = queue.Queue()
    gone = threading.Event()
    reader = threading.Thread(
        target=_read, args=(connection, commands, gone), name="ray-driver-reader", daemon=True
    )
    reader.start()
    playing = 0
    while True:
        try:
            while True:  # every command waiting; with nothing to play, wait for one
                command = commands.get(block=playing == 0)
                if command is None:
                    return not gone.is_set()
                if isinstance(command, KeepOnly):
                    actors.keep_only(command.entrants)
                else:
                    actors.submit(command)
                    playing += 1
        except queue.Empty:
            pass
        if actors.ready(POLL_S):
            connection.send(Finished(actors.next_result()))
            playing -= 1


def _read(connection: Connection, commands: queue.Queue[Command], gone: threading.Event) -> None:
    """Queue what the parent sends; None once it says stop, or goes (``gone`` set)."""
    try:
        while (message := connection.recv()) is not None:
            commands.put(message)
    except (EOFError, OSError):
        gone.set()
    commands.put(None)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
