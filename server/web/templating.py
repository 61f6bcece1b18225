"""The HTML templates and static assets, read from the installed package (no network, no CDN)."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, select_autoescape

from server.ladder.store import LADDER_FINGERPRINT

from .view_changes import with_view_changes

ENVIRONMENT = Environment(
    loader=PackageLoader("server.web", "templates"),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def duration_text(seconds: float | None) -> str:
    """A time left or a time running, as a person reads it ("estimating" while unknown)."""
    if seconds is None:
        return "estimating"
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


ENVIRONMENT.filters["duration"] = duration_text
ENVIRONMENT.globals["ladder_fingerprint"] = LADDER_FINGERPRINT


def render(template: str, **context: Any) -> str:
    return ENVIRONMENT.get_template(template).render(**context)


def render_viewer(template: str, replay: dict[str, Any], **context: Any) -> str:
    """A page of the replay viewer: the replay inlined for the viewer (each moment's view as its
    changes), its game's drawing module named."""
    script = f"/games/{quote(replay['match']['game'], safe='')}.js"
    payload = script_json(with_view_changes(replay))
    return render(template, replay=replay, replay_json=payload, game_script=script, **context)


def static_text(name: str) -> str:
    """A file of ``server/web/static``, for pages that inline their assets."""
    return files("server.web").joinpath("static", name).read_text(encoding="utf-8")


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` can end it early."""
    text = json.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def inline_script(source: str) -> str:
    """JavaScript to write inside a ``<script>`` element: no ``</script`` (any case) can end it early.

    ``<\\/`` means ``</`` in JavaScript strings, regular expressions and comments alike.
    """
    return re.sub(r"</(?=script)", r"<\\/", source, flags=re.IGNORECASE)
