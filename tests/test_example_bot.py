"""The example bot of ``docs/bots-saint-malo.md``: shown verbatim, short, legal, and playable.

The guide includes ``docs/examples/example_bot.py`` word for word; these tests keep
the two identical, keep the example under 40 lines, check that its answers are
legal, and play it as a real process against ``bots.random`` through the referee.
"""

from __future__ import annotations

import importlib.util
import shlex
from pathlib import Path
from types import ModuleType

import pytest

from sdk.games.registry import get_game
from server import launcher
from server import seats as seats_module
from server.launcher import BotProcess
from server.referee import RefereeConfig, TimeControl, run_match
from server.seats import SeatSpec
from tests.saint_malo.bot_answers import check_saint_malo_bot
from tests.test_docs import python_blocks

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "bots-saint-malo.md"
EXAMPLE = ROOT / "docs" / "examples" / "example_bot.py"
MAX_LINES = 40


def load_example() -> ModuleType:
    """Import the example file as a module (``docs`` is not a package)."""
    spec = importlib.util.spec_from_file_location("example_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guide_shows_the_example_file_verbatim() -> None:
    source = EXAMPLE.read_text(encoding="utf-8")
    blocks = python_blocks(GUIDE.read_text(encoding="utf-8"))
    shown = [block for block in blocks if "class ExampleBot" in block]
    assert shown == [source], "docs/bots-saint-malo.md must show docs/examples/example_bot.py verbatim, once"


def test_the_example_is_under_40_lines() -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    assert len(lines) < MAX_LINES, f"the example has {len(lines)} lines"


def test_every_answer_of_the_example_is_legal() -> None:
    """Seat 0 is the example; bonus persons of every seat are its to place.

    Every side grants a bonus person, so the rare bonus-person decision comes up
    often. Each answer is computed on the state a bot receives over the wire and
    applied with every rule checked: an illegal one raises.
    """
    check_saint_malo_bot(load_example().ExampleBot(), games=40, players=lambda game: 2 + game % 4)


def test_the_example_plays_a_real_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    launched: list[BotProcess] = []

    class RecordingBotProcess(BotProcess):
        def start(self) -> None:
            super().start()
            launched.append(self)

    monkeypatch.setattr(seats_module, "BotProcess", RecordingBotProcess)
    specs = [
        SeatSpec(name="example", command=f"python {shlex.quote(str(EXAMPLE))}"),
        SeatSpec(name="random", command="python -m bots.random"),
    ]
    config = RefereeConfig(TimeControl(decision_ms=5_000, bank_ms=60_000))
    record = run_match(
        get_game("saint_malo"),
        specs,
        match_id="example-vs-random",
        seed=11,
        config=config,
        log_dir=tmp_path,
    )

    example, opponent = record.seats
    assert example.bot == "example 1.0"
    assert (example.strikes, example.forfeited, example.faults) == (0, False, [])
    assert not opponent.forfeited
    assert record.end_reason == "completed"
    assert len(record.scores) == 2 and sorted(record.ranks) in ([1, 2], [1, 1])
    decisions = [step for step in record.steps if step.seat == 0]
    assert decisions and all(step.source == "bot" and step.strike is None for step in decisions)

    assert len(launched) == 2
    for bot in launched:
        assert bot.process is not None and bot.process.returncode is not None, "a bot was not reaped"
        # nothing runs in the bot's process group (a sandbox's zombies are init's to reap)
        assert not launcher._runs_in_group(bot.process.pid)
    assert not launcher._LIVE
    assert (tmp_path / "example-vs-random.seat0.example.log").exists()
