"""A bot that tries to cheat, to test the sandbox: at the start of every match it attacks.

    python -m tests.bots.cheating_bot

It tries to read the bracket file, the database, the other seats' logs and a
program of another seat, the referee's ``/proc`` entries and its parent's
environment (looking for the organiser's ``SMTOURNEY_TEST_SECRET``), to connect to a TCP port on
127.0.0.1, to fork without bound, to fill ``/tmp`` and to write outside it.
The targets come in its environment (``CHEAT_*``). Each attempt prints one line,
``ATTACK <name>: blocked (<why>)`` or ``ATTACK <name>: SUCCEEDED (<what>)``, then
it plays the safe default like any well-behaved bot.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from sdk.bot import MatchInfo
from sdk.games.saint_malo.bot import DefaultBot
from sdk.serve import run

FORK_LIMIT = 2000
"""Forks the bomb tries at most: far above any process limit the sandbox sets."""


def _read(path: str) -> str:
    return Path(path).read_bytes()[:200].decode("utf-8", "replace")


def _be_root() -> str:
    if os.getuid() == 0 or os.geteuid() == 0:
        return f"uid {os.getuid()}, euid {os.geteuid()}"
    raise PermissionError(f"uid {os.getuid()}")


def _listing(path: str) -> str:
    names = os.listdir(path)
    for name in names:  # reading one is the point
        _read(os.path.join(path, name))
    return ", ".join(names)


def _proc_environments() -> str:
    """Every process environment and command line this bot can read that holds the secret."""
    secret = "SMTOURNEY_TEST_SECRET=" + os.environ["CHEAT_SECRET_MARK"]
    hits = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            for part in ("environ", "cmdline"):
                try:
                    if secret in Path(f"/proc/{entry}/{part}").read_bytes().decode("utf-8", "replace"):
                        hits.append(f"/proc/{entry}/{part}")
                except OSError:
                    pass
    if hits:
        return ", ".join(hits)
    raise PermissionError("no process environment holds the secret")


def _referee_proc() -> str:
    return _read(f"/proc/{os.environ['CHEAT_REFEREE_PID']}/environ")


def _parent_environment() -> str:
    text = _read(f"/proc/{os.getppid()}/environ")
    if "SMTOURNEY_TEST_SECRET=" in text:
        return text
    raise PermissionError(f"the parent's environment holds no secret: {text[:60]!r}")


def _connect() -> str:
    with socket.create_connection(("127.0.0.1", int(os.environ["CHEAT_TCP_PORT"])), timeout=2) as sock:
        sock.sendall(b"cheater was here\n")
    return "connected"


_BOMB = """
import os, signal, time
children = []
try:
    for _ in range(LIMIT):
        pid = os.fork()
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        children.append(pid)
    print(f"{len(children)} children")
except OSError as exc:
    print(f"fork refused after {len(children)} children: {exc.strerror}")
for pid in children:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
"""


def _fork_bomb() -> str:
    """Forks without bound, from a fresh process: gRPC's own fork handlers would hang this one."""
    code = _BOMB.replace("LIMIT", str(FORK_LIMIT))
    outcome = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60
    )
    if "refused" in outcome.stdout:
        raise OSError(outcome.stdout.strip())
    return outcome.stdout.strip()


def _fill_tmp() -> str:
    written = 0
    path = "/tmp/filler"
    try:
        with open(path, "wb") as out:
            block = b"x" * (1024 * 1024)
            while written < 8 * 1024**3:
                out.write(block)
                out.flush()
                written += len(block)
    except OSError as exc:
        raise OSError(f"/tmp full after {written // (1024 * 1024)} MiB: {exc.strerror}") from None
    finally:
        os.remove(path)
    return f"{written // (1024 * 1024)} MiB written"


def _write_outside() -> str:
    Path(os.environ["CHEAT_ESCAPE_FILE"]).write_text("escaped\n")
    return "written"


def _write_own_program() -> str:
    (Path(__file__).parent / "cheater-was-here").write_text("x")
    return "written"


ATTACKS: dict[str, Callable[[], str]] = {
    "read-bracket": lambda: _read(os.environ["CHEAT_BRACKET"]),
    "read-database": lambda: _read(os.environ["CHEAT_DATABASE"]),
    "read-root-only-file": lambda: _read("/etc/shadow"),
    "be-root": _be_root,
    "read-other-logs": lambda: _listing(os.environ["CHEAT_LOG_DIR"]),
    "read-other-program": lambda: _read(os.environ["CHEAT_OTHER_PROGRAM"]),
    "read-referee-proc": _referee_proc,
    "read-parent-environment": _parent_environment,
    "find-secret-in-proc": _proc_environments,
    "connect-tcp": _connect,
    "fork-bomb": _fork_bomb,
    "fill-tmp": _fill_tmp,
    "write-outside": _write_outside,
    "write-own-program": _write_own_program,
}


class CheatingBot(DefaultBot):
    """Plays the safe default; tries every attack when a match starts."""

    name = "cheater"
    version = "1"

    def start_match(self, match: MatchInfo) -> None:
        for name, attack in ATTACKS.items():
            try:
                outcome = f"SUCCEEDED ({attack()[:80]!r})"
            except Exception as exc:  # every failure is the wall holding
                outcome = f"blocked ({type(exc).__name__}: {exc})"
            print(f"ATTACK {name}: {outcome}", flush=True)
        print(f"ATTACKS DONE in {match.match_id}", file=sys.stdout, flush=True)


if __name__ == "__main__":
    run(CheatingBot())
