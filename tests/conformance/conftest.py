"""The conformance tests see the example game as installed; the rest of the session does not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .example_install import example_game_visible


@pytest.fixture(autouse=True, scope="module")
def _example_game_installed() -> Iterator[None]:
    with example_game_visible():
        yield
