"""Talking to a ladder's API from the command line: one request, its JSON, or one line saying why not."""

from __future__ import annotations

import contextlib
import http.client
import json
import urllib.parse
from typing import IO, Any

__all__ = ["ClientError", "get_json", "send"]

TIMEOUT_S = 30.0
MAX_REPLY_BYTES = 64 * 1024 * 1024
"""A leaderboard of every bot ever submitted is far below this."""


class ClientError(Exception):
    """The server could not be reached or refused the request; the message is one line."""


def get_json(server: str, path: str, token: str | None = None) -> Any:
    """``GET`` ``path`` (under ``/api/ladder/``) of ``server``, as JSON."""
    return send(server, path, token)


def send(
    server: str,
    path: str,
    token: str | None = None,
    *,
    body: bytes | IO[bytes] | None = None,
    content_type: str = "application/json",
    length: int | None = None,
) -> Any:
    """``path`` (under ``/api/ladder/``) of ``server``: ``GET``, or ``POST`` of ``body`` (``length``
    bytes long if it is a file); the reply as JSON.

    A server that refuses a body before it is all sent (too large) has its reply read all the same.
    """
    parts = urllib.parse.urlsplit(server)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ClientError(f"--server: expected a URL such as http://HOST:PORT, got {server!r}")
    url = f"{server.rstrip('/')}/api/ladder/{path}"
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = content_type
        headers["Content-Length"] = str(len(body) if isinstance(body, bytes) else length)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    https = parts.scheme == "https"
    connection = (http.client.HTTPSConnection if https else http.client.HTTPConnection)(
        parts.netloc, timeout=TIMEOUT_S
    )
    target = f"{parts.path.rstrip('/')}/api/ladder/{path}"
    try:
        # A body refused before it is all sent (too large): the reply says why.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            connection.request("GET" if body is None else "POST", target, body=body, headers=headers)
        response = connection.getresponse()
        reply = response.read(MAX_REPLY_BYTES + 1)
    except (OSError, http.client.HTTPException) as exc:
        raise ClientError(f"cannot reach {url}: {_reason(exc)}") from None
    finally:
        connection.close()
    if response.status >= 400:
        raise ClientError(f"{url}: {response.status} {_detail(reply)}")
    try:
        return json.loads(reply)
    except ValueError:
        raise ClientError(f"{url}: the reply is not JSON; is this a smtourney ladder?") from None


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _detail(body: bytes) -> str:
    """The server's one-line ``detail``, else the start of the body."""
    try:
        detail = json.loads(body).get("detail")
    except (ValueError, AttributeError):
        detail = None
    text = detail if isinstance(detail, str) else body.decode("utf-8", "replace")[:200]
    return " ".join(text.split())
