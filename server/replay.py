"""The replay format: a stored match as a list of moments a viewer can step through.

One documented, versioned JSON form (``docs/replay-format.md``) serves the
terminal viewer, ``smtourney replay --json``, the web viewer and exported HTML
files. It is built by re-simulating the record with the engine, so a replay
that would not verify is never shown as if it were sound.

A replay is omniscient (the organiser's view) by default, or built as one seat
saw the match: then every position is that seat's view, and a step appears only
if the seat learned of it, told as the seat learned it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sdk.games.plugin import GameState
from sdk.games.registry import get_game

from .record import MatchRecord, StepRecord
from .resimulate import resimulate

REPLAY_FORMAT = "smtourney.replay"
REPLAY_VERSION = 2


def _step_json(step: StepRecord, text: str, seat: int | None) -> dict[str, Any]:
    """The step as ``seat`` may see it: another seat's action, reply, timing and strike stay hidden."""
    own = seat is None or step.seat == seat
    return {
        "seq": step.seq,
        "kind": step.kind,
        "seat": step.seat,
        "source": step.source,
        "action": step.step if own else None,
        "text": text,
        "reply": step.reply if own else None,
        "latency_us": step.latency_us if own else None,
        "strike": step.strike if own else None,
        "asked_at": step.asked_at if own else None,
    }


@dataclass(frozen=True, slots=True)
class Moment:
    """A position of the match, and the step that led to it (None for the start)."""

    step: dict[str, Any] | None
    state: GameState


def moments(record: MatchRecord, seat: int | None = None) -> list[Moment]:
    """Positions of ``record``, re-simulated: the start, then one after each step.

    With ``seat``, only after the steps that seat learned of. Raises
    :class:`server.resimulate.ReplayMismatchError` when the record does not
    re-simulate, and ``ValueError`` for a seat not in the match.
    """
    if seat is not None and not 0 <= seat < record.players:
        raise ValueError(f"seat {seat} is not in this match (seats 0 to {record.players - 1})")
    plugin = get_game(record.game)
    found: list[Moment] = []
    pending: list[dict[str, Any]] = []  # the step whose resulting position is not taken yet

    def take(state: GameState) -> None:
        found.append(Moment(pending.pop() if pending else None, state.clone()))

    def observe(step: StepRecord, action: Any, state: GameState) -> None:
        text = plugin.describe(state, action, seat)
        if text is None:
            return
        take(state)
        pending.append(_step_json(step, text, seat))

    take(resimulate(record, observe))
    return found


def build_replay(
    record: MatchRecord,
    *,
    tournament: str | None = None,
    seat: int | None = None,
    positions: list[Moment] | None = None,
) -> dict[str, Any]:
    """The replay of ``record`` in the documented format, omniscient or as ``seat`` saw it.

    ``positions``: from :func:`moments` with the same ``seat``.
    """
    plugin = get_game(record.game)
    if positions is None:
        positions = moments(record, seat)
    return {
        "format": REPLAY_FORMAT,
        "version": REPLAY_VERSION,
        "viewer_seat": seat,
        "match": {
            "id": record.match_id,
            "tournament": tournament,
            "game": record.game,
            "title": plugin.title,
            "players": record.players,
            "params": record.params,
            "time_control": record.time_control,
            "end_reason": record.end_reason,
            "duration_s": record.duration_s,
        },
        "seats": [
            {
                "seat": seat.seat,
                "name": seat.name,
                "bot": seat.bot,
                "score": seat.score,
                "rank": seat.rank,
                "strikes": seat.strikes,
                "forfeited": seat.forfeited,
                "forfeit_reason": seat.forfeit_reason,
                "faults": seat.faults,
                "time_used_ms": seat.time_used_ms,
            }
            for seat in record.seats
        ],
        "summary": record.summary,
        "moments": [
            {
                "index": i,
                "turn": plugin.turn(moment.state),
                "step": moment.step,
                "view": plugin.view(moment.state, seat),
            }
            for i, moment in enumerate(positions)
        ],
    }
