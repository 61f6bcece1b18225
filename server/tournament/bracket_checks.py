"""Checks of an entrant's text fields that would otherwise fail only when a worker launches
or calls the bot: a command the shell rules cannot split, an environment the kernel refuses,
a token gRPC cannot send, a name too long for a log file.

Each returns what is wrong, or None.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping

from sdk.serve import ADDRESS_ENV, PORT_ENV
from server.bounds import MAX_NAME_CHARS
from server.seats import file_safe_name

__all__ = [
    "MAX_ARGUMENT_BYTES",
    "command_problem",
    "env_problem",
    "header_value_problem",
    "name_problem",
]

MAX_ARGUMENT_BYTES = 32 * 1024
"""Longest command or environment entry: Linux refuses any one above 128 KiB (MAX_ARG_STRLEN)."""
MAX_LOG_NAME_BYTES = 200
"""An entrant's part of its log file name, ``{match_id}.seat{n}.{name}.log``: file names end at 255 bytes."""

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def name_problem(name: str) -> str | None:
    """An entrant name must be short enough to show in a table and to name its log files."""
    if len(name) > MAX_NAME_CHARS:
        return f"an entrant name may have at most {MAX_NAME_CHARS} characters, got {len(name)}"
    if len(file_safe_name(name).encode("utf-8")) > MAX_LOG_NAME_BYTES:
        return f"the name is too long for a log file name (over {MAX_LOG_NAME_BYTES} bytes in UTF-8)"
    return None


def command_problem(command: str) -> str | None:
    """The command must split into words like a shell would, and be something exec can run."""
    if "\0" in command:
        return "a command cannot contain a NUL character"
    if len(command.encode("utf-8", "surrogatepass")) > MAX_ARGUMENT_BYTES:
        return f"the command is longer than {MAX_ARGUMENT_BYTES:,} bytes"
    try:
        words = shlex.split(command)
    except ValueError as exc:  # "No closing quotation", "No escaped character"
        return f"cannot split the command into words: {str(exc).lower()}"
    if not words:
        return "command must not be empty"
    return None


def env_problem(env: Mapping[str, str]) -> tuple[str, str] | None:
    """The first variable (its name, and what is wrong) the kernel or the referee would refuse."""
    for name, value in env.items():
        if not _ENV_NAME.fullmatch(name):
            return name, "an environment variable name is letters, digits and _, not starting with a digit"
        if name in (PORT_ENV, ADDRESS_ENV):
            return name, f"{name} is set by the referee for every launched bot"
        if "\0" in value:
            return name, "an environment value cannot contain a NUL character"
        if len(name.encode()) + len(value.encode("utf-8", "surrogatepass")) + 1 > MAX_ARGUMENT_BYTES:
            return name, f"the variable is longer than {MAX_ARGUMENT_BYTES:,} bytes"
    return None


def header_value_problem(value: str, what: str) -> str | None:
    """``value`` goes into a gRPC header (a token) or a TLS name: visible ASCII only."""
    if not value.isascii() or not value.isprintable():
        return f"{what} may hold only visible ASCII characters (no newline, tab or other control)"
    if value != value.strip():
        return f"{what} must not start or end with a space"
    return None
