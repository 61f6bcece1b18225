"""Each bot page's example bot clearly beats the random bot, with a stated statistical margin.

The bot plays two-player games against ``bots.random`` in-process (``tests/bot_strength.py``: every
request and reply through the game's decision table, chance seeded, seats alternating). A *win* is a
sole first place; a shared first counts as no win. The claim "it beats random" is that its win share
is above one half: the lower end of the 95 % Wilson interval (``server/intervals.py``, maths in
docs/statistics.md) must lie above 0.5 -- 15 wins or more out of 20 by default. The ``slow`` run plays
200 other seeded games and asks more, a lower end above 0.75 (about 163 wins or more): clearly better
than random, not merely better.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_strength import Strength, strength
from tests.test_bot_pages import BOT_PAGES, example_bot_class, page_game

FAST_GAMES, FAST_BOUND = 20, 0.5
SLOW_GAMES, SLOW_BOUND = 200, 0.75


@pytest.mark.parametrize("page", BOT_PAGES, ids=[page.stem for page in BOT_PAGES])
def test_the_example_bot_beats_random(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = example_bot_class(page, tmp_path, monkeypatch)()
    result = strength(page_game(page), bot, FAST_GAMES, seed=1)
    low, _ = result.interval
    assert low > FAST_BOUND, f"{result.wins} wins in {result.games} games: 95 % Wilson lower bound {low:.3f}"


@pytest.mark.slow
@pytest.mark.parametrize("page", BOT_PAGES, ids=[page.stem for page in BOT_PAGES])
def test_the_example_bot_beats_random_clearly(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = example_bot_class(page, tmp_path, monkeypatch)()
    result = strength(page_game(page), bot, SLOW_GAMES, seed=2)
    low, _ = result.interval
    assert low > SLOW_BOUND, f"{result.wins} wins in {result.games} games: 95 % Wilson lower bound {low:.3f}"


def test_the_margin_can_fail() -> None:
    """Win counts just short of each margin (14 in 20, 162 in 200) do not pass."""
    assert Strength(20, 14).interval[0] <= FAST_BOUND < Strength(20, 15).interval[0]
    assert Strength(200, 162).interval[0] <= SLOW_BOUND < Strength(200, 163).interval[0]
