"""What the ladder's loop and validation launch, in process on real parts: uploaded programs (always
sandboxed, kept between matches), Ray actors on a real cluster on 127.0.0.1, and a validation match
that a bot passing ``bot check`` can still fail."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bots.random import RandomBot
from sdk.games.decisions import DecisionContext
from sdk.serve import BotServer, serve
from server.ladder.config import Ladder, load_ladder
from server.ladder.loop import LadderLoop
from server.ladder.seating import seat_spec
from server.ladder.store import LadderStore
from server.ladder.validation import validate_next
from server.store.repository import Store
from server.tournament.executor import ExecutorChoice

from .test_api import LOOPBACK
from .test_organiser import rows

ROOT = Path(__file__).resolve().parents[2]


def ladder_with(
    tmp_path: Path, text: str, bots: dict[str, dict[str, Any]]
) -> tuple[Ladder, Store, LadderStore]:
    """A ladder whose given bots are active (as if validated)."""
    path = tmp_path / "ladder.yaml"
    path.write_text(text)
    ladder = load_ladder(path)
    store = Store.open(ladder.database_path, create=True)
    ladders = LadderStore(store)
    ladders.add_participant("ada")
    (owner,) = ladders.participants()
    assert owner.id is not None
    for name, spec in bots.items():
        row = ladders.add_bot(owner.id, name, spec, mu=25, sigma=25 / 3)
        ladders.finish_validation(row.id, passed=True, reason=None, max_active=10)
    return ladder, store, ladders


def play(ladder: Ladder, ladders: LadderStore, matches: int, executor: ExecutorChoice, logs: Path) -> None:
    reports: list[str] = []
    loop = LadderLoop(ladder, ladders, workers=2, executor=executor, log_dir=logs, report=reports.append)
    loop.start()
    try:
        deadline = time.monotonic() + 180
        while ladders.played() < matches:
            assert time.monotonic() < deadline, f"fewer than {matches} matches within 3 minutes: {reports}"
            time.sleep(0.1)
    finally:
        loop.stop()
    assert reports == []


def test_an_uploaded_program_is_always_sandboxed_and_kept_between_matches(tmp_path: Path) -> None:
    archive = {"dir": str(ROOT), "command": "python -m bots.random"}
    spec = seat_spec("ada/r", archive, sandbox=False)
    assert spec.sandbox and spec.program_dir == ROOT and spec.command == "python -m bots.random"
    ladder, store, ladders = ladder_with(
        tmp_path,
        "name: up\ngame: saint_malo\nplayers: 2\nsandbox: false\nstartup_timeout_s: 60\n" + LOOPBACK,
        {"r0": archive, "r1": archive},
    )
    with closing(store):
        play(ladder, ladders, 4, ExecutorChoice(), tmp_path / "logs")
        assert ladders.played() >= 4
    # two workers, each launching each bot at most once: a kept process writes one log per first match
    logs = sorted(path.name for path in (tmp_path / "logs").glob("ladder-*.log"))
    assert 0 < len(logs) <= 4, logs
    faults = rows(ladder.database_path, "SELECT faults_json FROM seat")
    assert faults and all(fault == ("[]",) for fault in faults)


class ValidationBreaker(RandomBot):
    """Answers ``bot check`` correctly, then fails every decision of a real match."""

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        if context.match_id.startswith("validation-"):
            raise RuntimeError("only pretending")
        return super().decide(kind, observation, context)


@pytest.fixture
def breaker() -> Iterator[BotServer]:
    running = serve(ValidationBreaker(), 0)
    try:
        yield running
    finally:
        running.stop(grace=0)


def test_a_bot_that_passes_the_check_but_forfeits_its_validation_match_fails(
    tmp_path: Path, breaker: BotServer
) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: v\ngame: saint_malo\nplayers: 3\n" + LOOPBACK)
    ladder = load_ladder(path)
    with closing(Store.open(ladder.database_path, create=True)) as store:
        ladders = LadderStore(store)
        ladders.add_participant("ada")
        (owner,) = ladders.participants()
        assert owner.id is not None
        ladders.add_bot(owner.id, "liar", {"address": f"127.0.0.1:{breaker.port}"}, mu=25, sigma=8)
        assert validate_next(ladders, ladder, tmp_path / "logs")
        (bot,) = ladders.bots()
    assert bot.status == "failed"
    assert bot.reason is not None and bot.reason.startswith("FAIL validation match: seat 0 forfeited: ")
    assert "(last fault: decision " in bot.reason and "only pretending" in bot.reason
    assert rows(ladder.database_path, "SELECT COUNT(*) FROM match") == [(0,)]
