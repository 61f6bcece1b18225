"""Validating submitted bots: ``bot check`` for the ladder's game (:mod:`.checking`), then ``active`` or
``failed`` with the check's failing line. The validation match against copies of the bot is planned."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from server.bot_check import Check

from .checking import check_submission, report_folder, save_report
from .config import Ladder
from .store import LadderStore

__all__ = ["Validator", "validate_next"]

POLL_S = 0.5
"""How often the validator looks for new submissions when it has none."""


def validate_next(store: LadderStore, ladder: Ladder, log_dir: Path) -> bool:
    """Validate the oldest ``validating`` bot; False if there was none."""
    pending = store.next_validating()
    if pending is None:
        return False
    bot_id, spec_json = pending
    spec = json.loads(spec_json)
    lines: list[Check] = []
    folder = report_folder(log_dir, bot_id)
    passed = check_submission(spec, ladder, folder, lines.append)
    save_report(folder, lines)
    failing = next((check.line() for check in lines if not check.passed), None)
    store.finish_validation(bot_id, passed=passed, reason=failing, max_active=ladder.max_active_bots)
    return True


class Validator:
    """A thread validating submissions one at a time while the service runs."""

    def __init__(self, store: LadderStore, ladder: Ladder, log_dir: Path) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(store, ladder, log_dir), name="ladder-validator", daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self, store: LadderStore, ladder: Ladder, log_dir: Path) -> None:
        while not self._stop.is_set():
            if not validate_next(store, ladder, log_dir):
                self._stop.wait(POLL_S)
