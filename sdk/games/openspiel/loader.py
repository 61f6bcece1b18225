"""The one place ``pyspiel`` is imported, so a missing install is one clear line."""

from __future__ import annotations

import importlib
from types import ModuleType

INSTALL_HINT = "OpenSpiel is not installed; install it with: pip install -e '.[openspiel]'"


class OpenSpielMissingError(KeyError):
    """An ``openspiel:`` game named where the ``open-spiel`` package is not installed."""

    def __str__(self) -> str:
        return INSTALL_HINT


def pyspiel() -> ModuleType:
    """The ``pyspiel`` module, or :class:`OpenSpielMissingError` saying what to install."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        raise OpenSpielMissingError(INSTALL_HINT) from None
