"""``bot check`` of one submitted bot, reached or launched as its matches will reach or launch it, and
the check's report kept for its owner.

A bot submitted by address is only ever connected to (with its TLS and token settings), if the
ladder's address rules let it be reached (:mod:`.addresses`), at the IP that was checked, and a
failure to reach it is one line that does not say why (refused, closed, timed out); an archive bot
is launched from its unpacked folder, always in the sandbox, whatever the ladder's ``sandbox`` says:
uploaded code never runs outside it, and a command that reads as an address is never connected to.
Each bot's check writes its lines and the launched bot's output in a folder of its own,
``LOG_DIR/checks/bot-ID/``, which only its owner is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from server.bot_check import LOG_NAME, Check, check_bot

from .addresses import NOT_REACHED, AddressRefusedError, command_looks_like_address
from .config import Ladder

__all__ = ["LOG_TAIL_LINES", "CheckReport", "check_submission", "report_folder", "save_report"]

REPORT_NAME = "check.txt"
LOG_TAIL_LINES = 20
"""Lines of a launched bot's output its owner is shown."""
_TAIL_BYTES = 64 * 1024
_LINE_CHARS = 500


def report_folder(log_dir: Path, bot_id: int) -> Path:
    """Where the check of bot ``bot_id`` writes its report and the launched bot's output."""
    return log_dir / "checks" / f"bot-{bot_id}"


def check_submission(
    spec: dict[str, Any], ladder: Ladder, folder: Path, report: Callable[[Check], None]
) -> bool:
    """``bot check`` for the ladder's game of the bot ``spec`` describes (as stored in ``spec_json``)."""
    common: dict[str, Any] = {
        "game": ladder.game,
        "log_dir": folder,
        "startup_timeout_s": ladder.startup_timeout_s,
        "decision_ms": ladder.time_control.decision_ms,
        "report": report,
    }
    if "dir" in spec:
        command = str(spec["command"])
        if command_looks_like_address(command):  # check_bot would connect to it: never
            report(Check("launch", False, f"{command!r} reads as an address, not a command"))
            return False
        limits = ladder.referee_config().limits
        return check_bot(command, sandboxed=True, program_dir=Path(spec["dir"]), limits=limits, **common)
    try:
        reached = ladder.addresses.policy().reach_spec(spec)
    except AddressRefusedError:
        report(Check("reach", False, NOT_REACHED))
        return False
    common["report"] = _without_connection_details(report, str(spec.get("address")))
    return check_bot(reached.address, sandboxed=True, tls=reached.tls, token=spec.get("token"), **common)


def _without_connection_details(report: Callable[[Check], None], address: str) -> Callable[[Check], None]:
    """``report``, with a failed health check said in one line that does not tell a refused port from a
    closed one or a missing host: the ladder must not probe the network for a participant."""

    def reported(check: Check) -> None:
        if check.name == "health" and not check.passed:
            check = Check(
                "health",
                False,
                f"the bot at {address} did not answer Health/Check with SERVING",
                "is it running, serving grpc.health.v1.Health, and reachable from the ladder?",
            )
        report(check)

    return reported


def save_report(folder: Path, checks: list[Check]) -> None:
    """Keep every line of the check, as ``bot check`` prints them."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [line for check in checks for line in check.lines()]
    (folder / REPORT_NAME).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


class CheckReport:
    """What its owner is shown of a bot's check: its lines and the last lines of the bot's output."""

    def __init__(self, log_dir: Path, bot_id: int) -> None:
        self.folder = report_folder(log_dir, bot_id)

    def lines(self) -> list[str]:
        return _read_lines(self.folder / REPORT_NAME, whole=True)

    def log_tail(self) -> list[str]:
        return _read_lines(self.folder / LOG_NAME, whole=False)[-LOG_TAIL_LINES:]


def _read_lines(path: Path, *, whole: bool) -> list[str]:
    try:
        with path.open("rb") as file:
            if not whole:
                file.seek(max(0, file.seek(0, 2) - _TAIL_BYTES))
            text = file.read().decode("utf-8", "replace")
    except OSError:
        return []
    return [line.rstrip()[:_LINE_CHARS] for line in text.splitlines() if line.strip()]
