"""Validating submitted bots: ``bot check`` for the ladder's game (:mod:`.checking`), then one
validation match of the bot against copies of itself, then ``active`` or ``failed`` with the first
failing line.

The validation match is played exactly as a ladder match (same seat, clock, limits and sandbox),
but stored nowhere and rated by no one: it shows that the bot lasts a whole match, which the
check's scripted positions cannot."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

from server.bot_check import Check
from server.display import print_error
from server.seeds import derive_seed
from server.store.retry import OutageNotice, Retry, patient
from server.tournament.jobs import MatchJob, MatchPlayer
from server.tournament.runner import referee_failure

from .checking import check_submission, report_folder, save_report
from .config import Ladder
from .seating import seat_spec
from .store import LadderStore

__all__ = ["Validator", "validate_next", "validation_match"]

POLL_S = 0.5
"""How often the validator looks for new submissions when it has none."""
FAILURE_PAUSE_S = 10.0
"""How long the validator rests after an unexpected failure before it tries again."""


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
    """A thread validating submissions one at a time while the service runs.

    It outlives whatever goes wrong: it waits out a database outage (told through ``outage``, shared
    with the ladder's loop), and any other failure is reported, then validation goes on after a pause."""

    def __init__(
        self,
        store: LadderStore,
        ladder: Ladder,
        log_dir: Path,
        *,
        report: Callable[[str], None] = print_error,
        outage: OutageNotice | None = None,
    ) -> None:
        self._stop = threading.Event()
        self._report = report
        retry = Retry(outage or OutageNotice(report, "validations wait for it"), self._stop)
        self._thread = threading.Thread(
            target=self._run,
            args=(patient(store, retry), ladder, log_dir),
            name="ladder-validator",
            daemon=True,
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self, store: LadderStore, ladder: Ladder, log_dir: Path) -> None:
        while not self._stop.is_set():
            try:
                if validate_next(store, ladder, log_dir):
                    continue
            except Exception as exc:
                if self._stop.is_set():
                    return
                why = f"{type(exc).__name__}: {exc}"
                self._report(f"validation failed, tried again in {FAILURE_PAUSE_S:.0f} s: {why}")
                self._stop.wait(FAILURE_PAUSE_S)
                continue
            self._stop.wait(POLL_S)


def validation_match(bot_id: int, spec_json: str, ladder: Ladder, log_dir: Path) -> str | None:
    """Play the bot against copies of itself, one per seat; None if no seat forfeited, else why."""
    name = f"validation-{bot_id}"
    job = MatchJob(
        index=0,
        game=ladder.game,
        match_id=name,
        seed=derive_seed(ladder.seed, "validation match", bot_id),
        specs=(seat_spec(name, spec_json, sandbox=ladder.sandbox),) * ladder.players,
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
