"""A validation worker process of :class:`~server.ladder.validators.ValidationPool`: validates the
one bot it is sent and sends back the lines of its check and validation match.

    python -m server.ladder.validation_worker PARENT_PID SOCKET_FD

A process of its own, so a validation that takes too long is ended whole: SIGTERM unwinds it
(stopping the bots it launched), SIGKILL ends it and, by their parent-death signal, them. It dies
with its parent, and never touches the database: the pool records what it sends back.
"""

from __future__ import annotations

import signal
import sys
from multiprocessing.connection import Connection
from types import FrameType

from server.guard import die_with_parent

from .validation import validate


def _unwind(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    parent, descriptor = int(argv[0]), int(argv[1])
    if not die_with_parent(parent):  # the parent died while this worker was starting
        return 1
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent decides
    signal.signal(signal.SIGTERM, _unwind)
    connection = Connection(descriptor)
    try:
        bot_id, spec_json, ladder, log_dir = connection.recv()
        connection.send(validate(bot_id, spec_json, ladder, log_dir))
    except (KeyboardInterrupt, EOFError, BrokenPipeError):
        return 1
    finally:
        connection.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
