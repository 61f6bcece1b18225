"""``host:port`` addresses of running bots, read the same way in brackets and on the command line.

The network layer would take port 70000 as 70000 mod 65536 and a host with a control
character as a name to look up; both are refused here, before any match, instead.
"""

from __future__ import annotations

from .bounds import MAX_PORT

__all__ = ["address_problem", "looks_like_address"]

_EXAMPLE = "e.g. bots.example.org:50051 or [::1]:50051"


def looks_like_address(value: str) -> bool:
    """``value`` is meant as an address rather than a command: one word ending in ``:digits``."""
    host, sep, port = value.rpartition(":")
    return bool(sep and host and port.isdigit()) and not any(char.isspace() for char in value)


def address_problem(address: str) -> str | None:
    """What is wrong with ``address`` as ``host:port``, or None if nothing is."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port:
        return f"address must be host:port ({_EXAMPLE}), got {address!r}"
    if not (port.isascii() and port.isdigit()):
        return f"the port of {address!r} must be a number, got {port!r}"
    if len(port) > len(str(MAX_PORT)) or not 1 <= int(port) <= MAX_PORT:
        return f"the port of {address!r} must be between 1 and {MAX_PORT}, got {port}"
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
        if not host or ":" not in host:
            return f"only an IPv6 address goes in brackets, got {address!r}"
    elif ":" in host:
        return f"an IPv6 host goes in brackets ({_EXAMPLE}), got {address!r}"
    if any(char.isspace() or not char.isprintable() for char in host):
        return f"the host of {address!r} must not contain spaces or control characters"
    return None
