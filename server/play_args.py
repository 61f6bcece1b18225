"""The command-line arguments of ``smtourney play`` and ``smtourney bot serve``, checked before any
bot starts or any port is bound, so that a mistake costs one line and not a played match."""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

from sdk.games.plugin import GamePlugin
from sdk.games.registry import games, get_game

from .address import address_problem, looks_like_address
from .bounds import MAX_PORT
from .sandbox import sandbox_available
from .seats import SeatSpec
from .tournament.bracket_checks import command_problem

__all__ = [
    "ArgumentError",
    "check_listen",
    "check_output_file",
    "game_plugin",
    "log_folder",
    "port_from_env",
    "seat_specs",
]


class ArgumentError(ValueError):
    """An argument that cannot be used; ``str()`` names the option."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")


def game_plugin(name: str | None) -> GamePlugin:
    """The named game; without a name, the only installed one."""
    if name is None:
        installed = sorted(games())
        if len(installed) != 1:
            raise ArgumentError("--game", f"choose a game; installed games: {', '.join(installed) or 'none'}")
        name = installed[0]
    try:
        return get_game(name)
    except KeyError as exc:
        raise ArgumentError("--game", exc.args[0]) from None


def seat_specs(plugin: GamePlugin, values: Sequence[str], *, sandbox: bool = True) -> list[SeatSpec]:
    """``host:port`` is a running bot to connect to; anything else a command to launch
    (in the sandbox unless ``sandbox`` is False).

    Seats are named after the address or the command's last word, made unique.
    """
    low, high = plugin.min_players, plugin.max_players
    if not low <= len(values) <= high:
        raise ArgumentError("--bot", f"{plugin.name} is played by {low} to {high} bots, got {len(values)}")
    specs: list[SeatSpec] = []
    for number, value in enumerate(values, 1):
        address = looks_like_address(value)
        problem = address_problem(value) if address else command_problem(value)
        if problem is None and sandbox and not address and not sandbox_available():
            problem = (
                "bubblewrap (bwrap) is not installed, and launched bots run in its sandbox: install the "
                "package bubblewrap (apt-get install bubblewrap), or give --no-sandbox"
            )
        if problem is not None:
            raise ArgumentError(f"--bot {number}", problem)
        base = value if address else value.split()[-1].removeprefix("bots.")
        taken = sum(1 for spec in specs if spec.name.split("#")[0] == base)
        name = f"{base}#{taken + 1}" if taken else base
        if address:
            specs.append(SeatSpec(name=name, address=value))
        else:
            specs.append(SeatSpec(name=name, command=value, sandbox=sandbox))
    return specs


def check_output_file(option: str, path: Path) -> None:
    """``path`` can be written when the match is over: its folder exists, it is not a folder or pipe."""
    if not path.parent.is_dir():
        raise ArgumentError(option, f"the folder {path.parent} does not exist")
    if not os.access(path.parent, os.W_OK):
        raise ArgumentError(option, f"cannot write in the folder {path.parent}")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise ArgumentError(option, f"{path} is not a regular file")


def log_folder(path: Path) -> Path:
    """``path`` is a folder, or can become one."""
    if path.exists() and not path.is_dir():
        raise ArgumentError("--log-dir", f"{path} is not a folder")
    return path


def port_from_env(environ: Mapping[str, str], name: str) -> int | None:
    """The port in the environment variable ``name``, if set; refused unless 0 to 65535."""
    text = environ.get(name)
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_PORT))) or int(text) > MAX_PORT:
        raise ArgumentError(name, f"a port is 0 to {MAX_PORT}, got {text!r}")
    return int(text)


def check_listen(host: str, port: int) -> None:
    """A server could listen on ``host``:``port`` now (gRPC would report a failure in several lines)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except (OSError, UnicodeError) as exc:
        raise ArgumentError("--host/--port", f"cannot listen on {host} port {port}: {exc}") from None
