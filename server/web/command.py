"""``smtourney web``: serve the viewer for one database on a local port."""

from __future__ import annotations

import socket
from typing import Annotated

import typer
from rich.console import Console

from server.display import plain, print_error
from server.store.database import StoreError
from server.tournament.commands import DEFAULT_DB, DbOption, db_location

console = Console(highlight=False, soft_wrap=True)


def listen(host: str, port: int) -> socket.socket:
    """Listen now, so a taken port is reported before serving, ``--port 0`` knows its port and the
    printed URL answers at once (connections wait in the backlog until the app is up)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def web(
    db: DbOption = DEFAULT_DB,
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to listen on (0: pick a free one).")
    ] = 8000,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
) -> None:
    """Browse tournaments, standings and replays in a web browser."""
    # Imported here so that the other commands do not pay for loading the web stack.
    import uvicorn

    from .app import create_app

    location = db_location(db)
    try:
        app = create_app(location)
    except StoreError as exc:
        print_error(str(exc))
        raise typer.Exit(1) from None
    try:
        sock = listen(host, port)
    except OSError as exc:
        print_error(f"cannot listen on {host} port {port}: {exc.strerror or exc}")
        raise typer.Exit(1) from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    console.print(plain(f"serving {location} at http://{shown}:{bound}/  (Ctrl-C to stop)"))
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
