"""Talking to a ladder's API from the command line: one request, its JSON, or one line saying why not."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

__all__ = ["ClientError", "get_json"]

TIMEOUT_S = 30.0
MAX_REPLY_BYTES = 64 * 1024 * 1024
"""A leaderboard of every bot ever submitted is far below this."""


class ClientError(Exception):
    """The server could not be reached or refused the request; the message is one line."""


def get_json(server: str, path: str, token: str | None = None) -> Any:
    """``GET`` ``path`` (under ``/api/ladder/``) of ``server``, as JSON."""
    parts = urllib.parse.urlsplit(server)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ClientError(f"--server: expected a URL such as http://HOST:PORT, got {server!r}")
    url = f"{server.rstrip('/')}/api/ladder/{path}"
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            body = response.read(MAX_REPLY_BYTES + 1)
    except urllib.error.HTTPError as error:
        with error:
            raise ClientError(f"{url}: {error.code} {_detail(error.read(MAX_REPLY_BYTES))}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ClientError(f"cannot reach {url}: {reason}") from None
    try:
        return json.loads(body)
    except ValueError:
        raise ClientError(f"{url}: the reply is not JSON; is this a smtourney ladder?") from None


def _detail(body: bytes) -> str:
    """The server's one-line ``detail``, else the start of the body."""
    try:
        detail = json.loads(body).get("detail")
    except (ValueError, AttributeError):
        detail = None
    text = detail if isinstance(detail, str) else body.decode("utf-8", "replace")[:200]
    return " ".join(text.split())
