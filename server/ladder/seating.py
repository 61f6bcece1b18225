"""A ladder bot as the referee seats it: the same :class:`~server.seats.SeatSpec` a bracket's entrant
becomes, built from the bot's stored ``spec_json``.

Two kinds are stored: a bot reached at an address (``{"address", "tls", "server_name", "token"}``)
and an uploaded program (``{"dir", "command"}``), launched like a bracket entrant's ``command``
with ``program_dir``: always in the sandbox, whatever the ladder's ``sandbox`` says, since its
code is a stranger's. A bot's address is checked against the ladder's address rules each time it is
seated and reached at the IP that was checked; one refused is seated withdrawn, never connected to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server.client import Tls
from server.seats import SeatSpec

from .addresses import AddressPolicy, AddressRefusedError

__all__ = ["entrant_name", "ladder_match_of", "match_id_of", "seat_spec"]

MATCH_ID_PREFIX = "ladder-"


def entrant_name(participant: str, bot: str) -> str:
    """How a ladder bot is named in stored matches: unique, since a bot name is unique per participant."""
    return f"{participant}/{bot}"


def match_id_of(ladder_match_id: int) -> str:
    """The stored match id of a ladder match, under which it is also watched live."""
    return f"{MATCH_ID_PREFIX}{ladder_match_id}"


def ladder_match_of(match_id: str) -> int | None:
    """The ladder match a stored match id names, if it names one."""
    number = match_id.removeprefix(MATCH_ID_PREFIX)
    return int(number) if number != match_id and number.isascii() and number.isdigit() else None


def seat_spec(
    name: str, spec_json: str | dict[str, Any], *, sandbox: bool, addresses: AddressPolicy | None = None
) -> SeatSpec:
    """The seat of the bot stored as ``spec_json``; ``sandbox`` applies to bots launched by the
    organiser's own choice only (an uploaded program is always sandboxed). With ``addresses``, a bot's
    address is checked and pinned to the IP checked, or the seat withdrawn."""
    spec: dict[str, Any] = json.loads(spec_json) if isinstance(spec_json, str) else spec_json
    if "dir" in spec:
        return SeatSpec(name=name, command=str(spec["command"]), program_dir=Path(spec["dir"]), sandbox=True)
    address = str(spec["address"])
    tls = Tls(server_name=spec.get("server_name")) if spec.get("tls") else None
    withdrawn = None
    if addresses is not None:
        try:
            reached = addresses.reach_spec(spec)
        except AddressRefusedError as exc:
            withdrawn = str(exc)
        else:
            address, tls = reached.address, reached.tls
    return SeatSpec(
        name=name, address=address, tls=tls, token=spec.get("token"), sandbox=sandbox, withdrawn=withdrawn
    )
