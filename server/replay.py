"""The replay format: a stored match as a list of moments a viewer can step through.

One documented, versioned JSON form (``docs/replay-format.md``) serves the
terminal viewer, ``smtourney replay --json``, the web viewer and exported HTML
files. It is built by re-simulating the record with the engine, so a replay
that would not verify is never shown as if it were sound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sdk.games.plugin import GameState
from sdk.games.registry import get_game

from .record import MatchRecord, StepRecord
from .resimulate import resimulate

REPLAY_FORMAT = "smtourney.replay"
REPLAY_VERSION = 1


def _step_json(step: StepRecord, text: str) -> dict[str, Any]:
    return {
        "seq": step.seq,
        "kind": step.kind,
        "seat": step.seat,
        "source": step.source,
        "action": step.step,
        "text": text,
        "reply": step.reply,
        "latency_us": step.latency_us,
        "strike": step.strike,
    }


@dataclass(frozen=True, slots=True)
class Moment:
    """A position of the match, and the step that led to it (None for the start)."""

    step: dict[str, Any] | None
    state: GameState


def moments(record: MatchRecord) -> list[Moment]:
    """Every position of ``record``, re-simulated: the start, then one after each step.

    Raises :class:`server.resimulate.ReplayMismatchError` when the record does
    not re-simulate.
    """
    plugin = get_game(record.game)
    found: list[Moment] = []
    pending: list[dict[str, Any]] = []  # the step whose resulting position is not taken yet

    def take(state: GameState) -> None:
        found.append(Moment(pending.pop() if pending else None, state.clone()))

    def observe(step: StepRecord, action: Any, state: GameState) -> None:
        take(state)
        pending.append(_step_json(step, plugin.describe(state, action)))

    take(resimulate(record, observe))
    return found


def build_replay(
    record: MatchRecord, *, tournament: str | None = None, positions: list[Moment] | None = None
) -> dict[str, Any]:
    """The replay of ``record`` in the documented format (``positions``: from :func:`moments`)."""
    plugin = get_game(record.game)
    if positions is None:
        positions = moments(record)
    return {
        "format": REPLAY_FORMAT,
        "version": REPLAY_VERSION,
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
            {"index": i, "step": moment.step, "view": plugin.view(moment.state)}
            for i, moment in enumerate(positions)
        ],
    }
