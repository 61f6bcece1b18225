"""One replay as a single HTML file: the web viewer with its scripts, styles and data inlined.

The file opens from disk in any browser, offline, and can be mailed or attached to a bug report. It
holds the view the replay was built for (everything, or one seat's), and the game's own drawing
module, so it draws the position exactly as the served viewer does.
"""

from __future__ import annotations

from typing import Any

from .games import game_script
from .templating import inline_script, render, script_json, static_text
from .view_changes import with_view_changes


def export_html(replay: dict[str, Any]) -> str:
    """The replay viewer for ``replay`` (the dict of :func:`server.replay.build_replay`).

    Raises :class:`server.web.catalog.NotFoundError` when the replay's game is not installed.
    """
    module = game_script(replay["match"]["game"])
    return render(
        "replay_file.html",
        replay=replay,
        replay_json=script_json(with_view_changes(replay)),
        styles=static_text("site.css") + static_text("viewer.css"),
        script=inline_script(static_text("viewer.js")),
        game_script=None if module is None else inline_script(module),
    )
