"""Validating submitted bots: ``bot check`` for the ladder's game (:mod:`.checking`), then one
validation match of the bot against copies of itself, then ``active`` or ``failed`` with the first
failing line.

The validation match is played exactly as a ladder match (same seat, clock, limits and sandbox),
but stored nowhere and rated by no one: it shows that the bot lasts a whole match, which the
check's scripted positions cannot."""

from __future__ import annotations

import json
from pathlib import Path

from server.bot_check import Check
from server.seeds import derive_seed
from server.tournament.jobs import MatchJob, MatchPlayer
from server.tournament.runner import referee_failure

from .checking import check_submission, report_folder, save_report
from .config import Ladder
from .seating import seat_spec
from .store import LadderStore

__all__ = ["record_validation", "validate", "validate_next", "validation_match"]


def validate_next(store: LadderStore, ladder: Ladder, log_dir: Path) -> bool:
    """Validate the oldest ``validating`` bot here and now; False if there was none. (The service
    validates in worker processes, several at once: :mod:`.validators`.)"""
    pending = store.next_validating()
    if pending is None:
        return False
    bot_id, spec_json = pending
    record_validation(store, ladder, log_dir, bot_id, validate(bot_id, spec_json, ladder, log_dir))
    return True


def validate(bot_id: int, spec_json: str, ladder: Ladder, log_dir: Path) -> list[Check]:
    """The lines of the bot's check, then of its validation match if the check passed."""
    lines: list[Check] = []
    passed = check_submission(json.loads(spec_json), ladder, report_folder(log_dir, bot_id), lines.append)
    if passed:
        problem = validation_match(bot_id, spec_json, ladder, log_dir)
        lines.append(Check("validation match", problem is None, problem or "played to its end"))
    return lines


def record_validation(
    store: LadderStore, ladder: Ladder, log_dir: Path, bot_id: int, lines: list[Check]
) -> None:
    """Keep the report for the bot's owner; the bot ``active``, or ``failed`` with its first failing line."""
    save_report(report_folder(log_dir, bot_id), lines)
    failing = next((check.line() for check in lines if not check.passed), None)
    store.finish_validation(
        bot_id, passed=bool(lines) and failing is None, reason=failing, max_active=ladder.max_active_bots
    )


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
