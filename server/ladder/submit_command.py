"""``smtourney submit``: a participant sends a bot to a running ladder, as a program folder (packed here
as a .tar.gz) or as the address of a bot they run themselves, and sees its status."""

from __future__ import annotations

import json
import os
import stat
import tarfile
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import IO, Annotated, Any, NoReturn

import typer

from server.display import print_error, visible

from .client import ClientError, send

__all__ = ["PackError", "pack_folder", "submit"]

WAIT_POLL_S = 0.5


class PackError(ValueError):
    """A folder that cannot be sent as it is; the message is one line."""


def pack_folder(folder: Path, into: IO[bytes]) -> None:
    """Write ``folder``'s files as a .tar.gz to ``into``, paths relative to the folder.

    A link to a file inside the folder is packed as that file (``node_modules/.bin`` holds such
    links); any other link, or a device file or FIFO, is refused: the ladder takes none.
    """
    root = folder.resolve()
    with tarfile.open(fileobj=into, mode="w:gz") as tar:
        for directory, folders, files in os.walk(root):
            here = Path(directory)
            folders.sort()
            for name in [*folders, *sorted(files)]:
                path = here / name
                relative = path.relative_to(root).as_posix()
                if path.is_symlink():
                    target = path.resolve()
                    if not target.is_file() or not target.is_relative_to(root):
                        raise PackError(
                            f"{path}: a link to something that is not a file inside {folder}; "
                            "replace it with what it points to"
                        )
                    tar.add(target, arcname=relative, recursive=False)
                    continue
                kind = path.lstat().st_mode
                if not (stat.S_ISREG(kind) or stat.S_ISDIR(kind)):
                    raise PackError(f"{path}: a device file, FIFO or socket cannot be sent")
                tar.add(path, arcname=relative, recursive=False)


def submit(
    server: Annotated[str, typer.Option("--server", help="The ladder's URL, e.g. http://HOST:PORT.")],
    token: Annotated[str, typer.Option("--token", help="Your participant token.", envvar="SMTOURNEY_TOKEN")],
    name: Annotated[str, typer.Option("--name", help="The bot's name, unique among your bots.")],
    folder: Annotated[
        Path | None,
        typer.Option("--dir", help="The bot's program folder, sent as an archive (with --command)."),
    ] = None,
    command: Annotated[
        str | None,
        typer.Option(help="The command that starts the bot, run inside that folder, e.g. 'python bot.py'."),
    ] = None,
    address: Annotated[
        str | None, typer.Option(help="HOST:PORT of a bot you run yourself, instead of --dir.")
    ] = None,
    tls: Annotated[bool, typer.Option("--tls", help="Reach the bot at --address over TLS.")] = False,
    server_name: Annotated[
        str | None, typer.Option(help="The name the bot's certificate carries, if not the host's.")
    ] = None,
    bot_token: Annotated[
        str | None, typer.Option(help="A bearer token the ladder sends to your bot at --address.")
    ] = None,
    wait: Annotated[
        bool, typer.Option(help="Wait for the validation's result; exit 1 if the bot failed it.")
    ] = False,
    timeout: Annotated[float, typer.Option(min=1, help="Seconds --wait waits at most.")] = 600.0,
) -> None:
    """Submit a bot to a ladder: a program folder and its command, or the address of your own bot."""
    if (folder is None) == (address is None):
        _fail("give either --dir FOLDER (with --command) or --address HOST:PORT")
    if folder is not None:
        if command is None:
            _fail("--dir needs --command: the command that starts the bot inside the folder")
        if tls or server_name is not None or bot_token is not None:
            _fail("--tls, --server-name and --bot-token apply only to --address")
        if not folder.is_dir():
            _fail(f"--dir: not a folder: {folder}")
        row = _send_archive(server, token, name, folder, str(command))
    else:
        if command is not None:
            _fail("--command applies only to --dir (your bot at --address is already running)")
        spec = {"name": name, "address": address, "tls": tls, "server_name": server_name, "token": bot_token}
        row = _call(lambda: send(server, "bots", token, body=json.dumps(spec).encode()))
    _print_status(row)
    if wait:
        deadline = time.monotonic() + timeout
        path = f"bots/{urllib.parse.quote(name, safe='')}"
        while row.get("status") == "validating":
            if time.monotonic() > deadline:
                _fail(f"still validating after {timeout:g} s; see `smtourney ladder status`", code=1)
            time.sleep(WAIT_POLL_S)
            row = _call(lambda: send(server, path, token))
        _print_status(row, details=True)
        if row.get("status") == "failed":
            raise typer.Exit(1)


def _send_archive(server: str, token: str, name: str, folder: Path, command: str) -> dict[str, Any]:
    query = urllib.parse.urlencode({"name": name, "command": command})
    with tempfile.TemporaryFile() as packed:
        try:
            pack_folder(folder, packed)
        except (PackError, OSError) as exc:
            _fail(str(exc))
        length = packed.tell()
        packed.seek(0)
        path = f"bots/archive?{query}"
        return _call(
            lambda: send(server, path, token, body=packed, content_type="application/gzip", length=length)
        )


def _call(request: Any) -> dict[str, Any]:
    try:
        reply = request()
    except ClientError as exc:
        _fail(str(exc))
    if not isinstance(reply, dict):
        _fail("unexpected reply; is this a smtourney ladder?")
    return reply


def _print_status(row: dict[str, Any], *, details: bool = False) -> None:
    reason = f" ({row['reason']})" if row.get("reason") else ""
    print(visible(f"bot {row.get('name')}: {row.get('status')}{reason}"))
    if details and row.get("status") == "failed":
        for key, title in (("check", "check"), ("log", "last lines of its output")):
            lines = row.get(key) or []
            if lines:
                print(f"{title}:")
                print(*(visible(f"  {line}") for line in lines), sep="\n")


def _fail(message: str, code: int = 2) -> NoReturn:
    print_error(message)
    raise typer.Exit(code)
