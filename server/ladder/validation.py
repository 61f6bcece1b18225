"""Validating submitted bots: ``bot check`` for the ladder's game (:mod:`.checking`), then one
validation match of the bot against copies of itself, then ``active`` or ``failed`` with the first
failing line.

The validation match is played exactly as a ladder match (same seat, clock, limits and sandbox),
but stored nowhere and rated by no one: it shows that the bot lasts a whole match, which the
check's scripted positions cannot."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from server.bot_check import Check
from server.seeds import derive_seed
from server.tournament.jobs import MatchJob, MatchPlayer
from server.tournament.runner import referee_failure

from .checking import check_submission, report_folder, save_report
from .config import Ladder
from .seating import seat_spec
from .store import LadderStore

__all__ = ["Validator", "validate_next", "validation_match"]

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
    if passed:
        problem = validation_match(bot_id, spec_json, ladder, log_dir)
        passed = problem is None
        lines.append(Check("validation match", passed, problem or "played to its end"))
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


def validation_match(bot_id: int, spec_json: str, ladder: Ladder, log_dir: Path) -> str | None:
    """Play the bot against copies of itself, one per seat; None if no seat forfeited, else why."""
    name = f"validation-{bot_id}"
    job = MatchJob(
        index=0,
        game=ladder.game,
        match_id=name,
        seed=derive_seed(ladder.seed, "validation match", bot_id),
        specs=(seat_spec(name, spec_json, sandbox=ladder.sandbox, addresses=ladder.addresses.policy()),)
        * ladder.players,
        params=ladder.params,
        config=ladder.referee_config(),
        log_dir=log_dir,
    )
    player = MatchPlayer()
    try:
        result = player.play(job)
    finally:
        player.close()
    if result.record is None:
        return referee_failure(result, name, log_dir)
    record = result.record.record
    forfeited = next((seat for seat in record.seats if seat.forfeited), None)
    if forfeited is None:
        return None
    before = [fault for fault in forfeited.faults if not fault.startswith("forfeited: ")]
    last = f" (last fault: {before[-1]})" if before else ""
    return f"seat {forfeited.seat} forfeited: {forfeited.forfeit_reason}{last}"
