"""One replay as a single HTML file: the web viewer with its script, styles and data inlined.

The file opens from disk in any browser, offline, and can be mailed or attached to a bug report.
"""

from __future__ import annotations

from typing import Any

from .templating import render, script_json, static_text


def export_html(replay: dict[str, Any]) -> str:
    """The replay viewer for ``replay`` (the dict of :func:`server.replay.build_replay`)."""
    return render(
        "replay_file.html",
        replay=replay,
        replay_json=script_json(replay),
        styles=static_text("site.css") + static_text("viewer.css"),
        script=static_text("viewer.js"),
    )
