"""Which addresses the ladder reaches for bots that participants run themselves.

A participant names the address; the ladder connects to it from its own machine. Left open, that
would let a participant reach the ladder host's own ports and its private network, and read from
the failures which of them answer. So every address is resolved and *every* IP it resolves to is
checked, at submission and again each time the bot is reached, and the connection is then made to
the IP that was checked (a name that resolves elsewhere a second later is not followed):

- an IP in one of the organiser's ``allow`` entries (a network such as ``203.0.113.0/24``, or a host
  name, ``*.example.org`` for its subdomains) is reached;
- otherwise an IP in a ``deny`` entry, or one that is not globally routable (loopback, private,
  link-local, carrier-grade NAT, documentation and other reserved ranges, multicast), is refused.

A ``unix:`` address is never reached for a participant. Refusals and failures say only that the
address is not reached, never why a connection failed (refused, closed, timed out).
"""

from __future__ import annotations

import ipaddress
import socket
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

from server.address import address_problem
from server.client import Tls

__all__ = [
    "NOT_REACHED",
    "AddressPolicy",
    "AddressRefusedError",
    "Reached",
    "address_entry_problem",
    "command_looks_like_address",
]

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

RESOLVE_TIMEOUT_S = 5.0
"""Longest wait for a host name to resolve: a participant's slow name server holds nothing longer."""
NOT_REACHED = "this ladder does not reach that address"
"""The one line a refused address gets, whatever the reason."""
_SCHEMES = ("unix:", "unix-abstract:", "dns:", "ipv4:", "ipv6:", "vsock:", "xds:")
"""Target schemes gRPC reads in an address."""
_resolver = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ladder-resolve")


class AddressRefusedError(ValueError):
    """An address the ladder does not reach; the message is one line, the same for every reason."""


def command_looks_like_address(command: str) -> bool:
    """Whether an archive's ``command`` would be read as an address rather than run: its first word
    holds a ``:`` (``HOST:PORT``, ``[::1]:PORT``, ``unix:PATH``, ``dns:...``, ``ipv4:...``) or starts
    with a gRPC target scheme. No program's name needs a colon."""
    first = command.strip().split(maxsplit=1)[0] if command.strip() else ""
    return ":" in first or first.startswith("[") or command.strip().lower().startswith(_SCHEMES)


def address_entry_problem(entry: str) -> str | None:
    """What is wrong with an ``allow`` or ``deny`` entry: a network, an IP, or a host name."""
    if _network(entry) is not None:
        return None
    name = entry.removeprefix("*.")
    labels = name.split(".")
    if name and all(label and len(label) <= 63 and _hostname_label(label) for label in labels):
        return None
    return f"{entry!r} is neither a network (203.0.113.0/24, 2001:db8::/32), an IP, nor a host name"


@dataclass(frozen=True, slots=True)
class Reached:
    """How a checked address is reached: at the IP that was checked, the certificate still checked
    against the name the participant gave."""

    address: str
    tls: Tls | None


class AddressPolicy:
    """The organiser's ``allow`` and ``deny`` entries, and the checks made with them."""

    def __init__(self, allow: tuple[str, ...] = (), deny: tuple[str, ...] = ()) -> None:
        self._allow = _Entries(allow)
        self._deny = _Entries(deny)

    def reach(self, address: str, *, tls: bool = False, server_name: str | None = None) -> Reached:
        """Resolve ``address`` (``HOST:PORT``), check every IP; where to connect, or
        :class:`AddressRefusedError`."""
        if address_problem(address) is not None or address.lower().startswith(_SCHEMES):
            raise AddressRefusedError(NOT_REACHED)
        host, _, port = address.rpartition(":")
        host = host.removeprefix("[").removesuffix("]")
        ips = _resolve(host, int(port))
        if not ips or not all(self._allowed(host, ip) for ip in ips):
            raise AddressRefusedError(NOT_REACHED)
        ip = ips[0]
        target = f"[{ip}]:{port}" if ip.version == 6 else f"{ip}:{port}"
        if not tls:
            return Reached(target, None)
        literal = _network(host) is not None
        return Reached(target, Tls(server_name=server_name or (None if literal else host)))

    def reach_spec(self, spec: dict[str, Any]) -> Reached:
        """:meth:`reach` for a stored ``spec`` of a bot reached by address."""
        return self.reach(
            str(spec.get("address", "")), tls=bool(spec.get("tls")), server_name=spec.get("server_name")
        )

    def _allowed(self, host: str, ip: IpAddress) -> bool:
        plain = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped else ip
        if self._allow.holds(host, plain):
            return True
        if self._deny.holds(host, plain):
            return False
        return plain.is_global and not plain.is_multicast


class _Entries:
    """Networks and host names, as the organiser listed them."""

    def __init__(self, entries: tuple[str, ...]) -> None:
        networks = [_network(entry) for entry in entries]
        self.networks = [network for network in networks if network is not None]
        self.names = [
            entry.lower() for entry, network in zip(entries, networks, strict=True) if network is None
        ]

    def holds(self, host: str, ip: IpAddress) -> bool:
        host = host.lower().rstrip(".")
        named = any(
            host == name or (name.startswith("*.") and host.endswith(name[1:])) for name in self.names
        )
        return named or any(ip.version == network.version and ip in network for network in self.networks)


def _network(entry: str) -> IpNetwork | None:
    try:
        return ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return None


def _hostname_label(label: str) -> bool:
    return label.isascii() and label.replace("-", "").isalnum() and not label.startswith("-")


def _resolve(host: str, port: int) -> list[IpAddress]:
    """Every IP ``host`` resolves to (empty if it does not resolve in time)."""
    literal = _network(host)
    if literal is not None and literal.num_addresses == 1 and "/" not in host:
        return [literal.network_address]
    future = _resolver.submit(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
    try:
        infos = future.result(timeout=RESOLVE_TIMEOUT_S)
    except (OSError, UnicodeError, FutureTimeout):
        return []
    found: list[IpAddress] = []
    for info in infos:
        try:
            ip = ipaddress.ip_address(str(info[4][0]).partition("%")[0])
        except ValueError:
            return []
        if ip not in found:
            found.append(ip)
    return found
