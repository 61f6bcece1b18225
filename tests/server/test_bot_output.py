"""A launched bot's output is capped: a real sandboxed process writing 1 GiB leaves its log at the cap,
the rest dropped and counted; a bot launched for a match that floods gets a fault on its seat."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sdk.games.registry import get_game
from server.bot_output import OUTPUT_CAP_BYTES, output_fault
from server.launcher import BotProcess
from server.referee import RefereeConfig, run_match
from server.seats import SeatSpec

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed")

GIB = 1024**3
FLOOD = "import sys\nchunk = b'x' * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.buffer.write(chunk)\n"


def test_a_bot_writing_a_gibibyte_leaves_its_log_at_the_cap_and_the_rest_counted(tmp_path: Path) -> None:
    program = tmp_path / "flood"
    program.mkdir()
    (program / "flood.py").write_text(FLOOD)
    log = tmp_path / "flood.log"
    with BotProcess(f"python {program / 'flood.py'}", log) as process:
        assert process.wait_exit(120) == 0
    assert process.output is not None
    assert log.stat().st_size == OUTPUT_CAP_BYTES
    assert process.output.dropped == GIB - OUTPUT_CAP_BYTES


FLOODING_BOT = """from bots.random import RandomBot
from sdk.serve import run


class Flooding(RandomBot):
    def start_match(self, match):
        print("x" * (8 << 20), flush=True)
        return super().start_match(match)


run(Flooding())
"""


def test_a_bot_flooding_its_log_in_a_match_gets_a_fault_and_the_log_stays_at_the_cap(tmp_path: Path) -> None:
    program = tmp_path / "flooding"
    program.mkdir()
    (program / "bot.py").write_text(FLOODING_BOT)
    specs = (
        SeatSpec("flooding", command="python bot.py", program_dir=program),
        SeatSpec("quiet", command="python -m bots.random"),
    )
    record = run_match(
        get_game("saint_malo"),
        specs,
        match_id="m",
        seed=3,
        config=RefereeConfig(startup_timeout_s=60),
        log_dir=tmp_path / "logs",
    )
    flooding, quiet = record.seats
    (fault,) = flooding.faults
    assert fault.startswith(output_fault(OUTPUT_CAP_BYTES, 0).split(":")[0] + ":"), fault
    assert int(fault.split(": ")[1].split()[0].replace(",", "")) > 7 << 20
    assert quiet.faults == [] and not flooding.forfeited and record.end_reason == "completed"
    (log,) = (tmp_path / "logs").glob("m.seat0.*.log")
    assert log.stat().st_size <= OUTPUT_CAP_BYTES + 4096  # the cap, and the referee's own notes
