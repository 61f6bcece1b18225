"""Helpers for tests that play real matches between real bot processes."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from sdk.games.registry import get_game
from server.launcher import Limits
from server.record import MatchRecord
from server.referee import RefereeConfig, TimeControl, run_match
from server.seats import SeatSpec

ROOT = Path(__file__).resolve().parents[2]
BOT_ENV = {"PYTHONPATH": str(ROOT)}
#: The .proto folders a Saint Malo bot author copies: the lifecycle's and the game's own.
SAINT_MALO_PROTOS = (ROOT / "proto", ROOT / "sdk" / "games" / "saint_malo" / "proto")


def stub_only_bot(folder: Path) -> Path:
    """``tests/bots/stub_only_bot.py`` beside the modules protoc makes of the .proto files alone, in
    ``folder``: a Saint Malo bot as an author without the SDK builds it. Returns the script."""
    import grpc_tools
    from grpc_tools import protoc

    protos = [str(p.relative_to(root)) for root in SAINT_MALO_PROTOS for p in root.rglob("*.proto")]
    include = Path(grpc_tools.__file__).parent / "_proto"
    args = [*(f"-I{root}" for root in SAINT_MALO_PROTOS), f"-I{include}"]
    assert (
        protoc.main(["protoc", *args, f"--python_out={folder}", f"--grpc_python_out={folder}", *protos]) == 0
    )
    return Path(shutil.copy(ROOT / "tests" / "bots" / "stub_only_bot.py", folder))


def launched(name: str, module: str, *args: str, tag: str = "") -> SeatSpec:
    """A seat launched as ``python -m module args`` from the repository root.

    ``tag`` goes into the process environment, so :func:`processes_with` finds it.
    """
    command = " ".join([sys.executable, "-m", module, *args])
    return SeatSpec(name=name, command=command, env={**BOT_ENV, "SMTOURNEY_TEST_TAG": tag})


def play(
    specs: Sequence[SeatSpec],
    log_dir: Path,
    *,
    seed: int = 1,
    decision_ms: int = 2000,
    bank_ms: int = 5000,
    startup_timeout_s: float = 20.0,
    match_id: str = "test-match",
) -> MatchRecord:
    config = RefereeConfig(
        TimeControl(decision_ms, bank_ms), startup_timeout_s=startup_timeout_s, limits=Limits(memory_mb=None)
    )
    return run_match(
        get_game("saint_malo"), specs, match_id=match_id, seed=seed, config=config, log_dir=log_dir
    )
