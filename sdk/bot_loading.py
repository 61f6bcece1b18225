"""Trusted Python bot classes named ``module:Class``, loaded for play in this process.

Used wherever a bot plays in-process: the referee's in-process transport and the learning
environments' opponents (:mod:`sdk.env`).
"""

from __future__ import annotations

import importlib
import os
import sys

from sdk.bot import Bot
from sdk.games.plugin import GamePlugin

__all__ = ["BotClassError", "bot_class_problem", "load_bot_class"]


class BotClassError(ValueError):
    """A ``module:Class`` that does not name a bot class."""


def load_bot_class(target: str) -> type[Bot]:
    """The class ``target`` (``package.module:Class``) names; :class:`BotClassError` says why not.

    The module is looked up as ``python -m`` would: in the working folder, then on the path."""
    module_name, colon, class_name = target.partition(":")
    if not colon or not module_name or not class_name:
        raise BotClassError(f"expected module:Class (e.g. mybots.greedy:GreedyBot), got {target!r}")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # modules resolve as with ``python -m``: the working folder first
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # anything the import runs may fail: report it in one line
        raise BotClassError(f"cannot import {module_name!r}: {type(exc).__name__}: {exc}") from None
    found = getattr(module, class_name, None)
    if found is None:
        raise BotClassError(f"module {module_name!r} has no {class_name!r}")
    if not isinstance(found, type) or not issubclass(found, Bot):
        raise BotClassError(f"{target} is not a bot class (a subclass of sdk.bot.Bot)")
    return found


def bot_class_problem(bot_class: type[Bot], plugin: GamePlugin) -> str | None:
    """Why ``bot_class`` cannot play ``plugin``'s game, or None when it can."""
    name = f"{bot_class.__module__}:{bot_class.__qualname__}"
    if not bot_class.plays(plugin.name):
        return f"{name} does not play {plugin.name} (plays: {', '.join(bot_class.games) or 'nothing'})"
    if not bot_class.answers_every_kind(plugin.decisions.kinds):
        missing = ", ".join(plugin.decisions.missing_methods(bot_class))
        return f"{name} plays {plugin.name} but has no method for: {missing}"
    return None
