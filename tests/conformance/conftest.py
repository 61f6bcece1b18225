"""The conformance tests see the example game as installed; the rest of the session does not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .example_install import LONG_GAMES, example_game_visible


@pytest.hookimpl(tryfirst=True)  # before the ``-m`` selection reads the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long games' seeds after the first, and their tournaments over the wire, are ``slow``: the
    default run stays short."""
    for item in items:
        params = getattr(item, "callspec", None)
        if params is None:
            continue
        long_seed = params.params.get("plugin") in LONG_GAMES and params.params.get("seed", 0)
        if long_seed or params.params.get("one_round") in LONG_GAMES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True, scope="module")
def _example_game_installed() -> Iterator[None]:
    with example_game_visible():
        yield
