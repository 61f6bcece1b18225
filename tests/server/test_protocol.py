"""The protocol on its own: generated code is current, and a bot needs only the .proto files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grpc_tools
from grpc_tools import protoc

from server.resimulate import resimulate
from server.seats import SeatSpec

from ..conftest import processes_with
from .conftest import ROOT, launched, play


def test_checked_in_protocol_modules_are_current() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "proto" / "generate.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_bot_built_from_the_proto_files_alone_plays_a_full_match(tmp_path: Path, tag: str) -> None:
    generated = tmp_path / "generated"
    generated.mkdir()
    protos = [str(p.relative_to(ROOT / "proto")) for p in (ROOT / "proto").rglob("*.proto")]
    include = Path(grpc_tools.__file__).parent / "_proto"
    args = [
        "protoc",
        f"-I{ROOT / 'proto'}",
        f"-I{include}",
        f"--python_out={generated}",
        f"--grpc_python_out={generated}",
    ]
    assert protoc.main([*args, *protos]) == 0
    # Only the generated modules are importable: not the repository, so not the SDK. The bot's
    # program directory holds both, and the sandbox shows it nothing else of the repository.
    shutil.copy(ROOT / "tests" / "bots" / "stub_only_bot.py", generated)
    bot = SeatSpec(
        name="stub-only",
        command=f"{sys.executable} {generated / 'stub_only_bot.py'}",
        env={"PYTHONPATH": str(generated), "SMTOURNEY_TEST_TAG": tag},
    )
    record = play([bot, launched("random", "bots.random", tag=tag)], tmp_path / "logs")
    stub_seat = record.seats[0]
    assert stub_seat.bot == "stub-only 1"
    assert stub_seat.strikes == 0 and not stub_seat.forfeited, stub_seat.faults
    decisions = [s for s in record.steps if s.seat == 0]
    assert {s.kind for s in decisions} >= {"keep", "choose", "rotate", "place"}
    assert all(s.source == "bot" for s in decisions)
    resimulate(record)
    assert processes_with(tag) == []
