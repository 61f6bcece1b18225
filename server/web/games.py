"""Each installed game's drawing module for the replay viewer (``plugin.web_script``, docs/web-viewer.md).

The shared viewer draws the controls, seats and decisions of any game; the position itself is drawn
by the module of the replay's game, served here and inlined into exported files.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import Response

from sdk.games.registry import games, get_game

from .catalog import NotFoundError

router = APIRouter()

#: The content type of a game module, as browsers expect for a classic script.
JAVASCRIPT = "text/javascript; charset=utf-8"


def game_script(name: str) -> str | None:
    """The drawing module of the installed game ``name``, or None when it has none on disk.

    Raises :class:`NotFoundError` when no game of that name is installed.
    """
    try:
        plugin = get_game(name)  # a family's games too (``prefix:name``)
    except KeyError as exc:
        if ":" in name:  # the family's own line: unknown family or game, or what to install
            raise NotFoundError(str(exc.args[0])) from None
        installed = ", ".join(sorted(games())) or "none"
        raise NotFoundError(f"there is no game {name!r} installed (installed: {installed})") from None
    path: Path | None = getattr(plugin, "web_script", None)  # a plugin written before modules existed
    if path is None or not path.is_file():
        return None
    return path.read_text(encoding="utf-8")


@router.get("/games/{name}.js")
def game_module(name: str) -> Response:
    """The module that draws ``name``'s positions; 404 for a game that is not installed or has none."""
    script = game_script(name)
    if script is None:
        raise NotFoundError(f"the game {name!r} has no drawing module for the web viewer")
    return Response(script, media_type=JAVASCRIPT)
