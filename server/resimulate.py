"""Re-simulate a match record with the game's engine and check that it holds.

Every step is re-applied with full rule checks; strike substitutions and
forfeited seats must show the game's safe default; the final scores and ranks
must match. The first disagreement raises :class:`ReplayMismatchError` naming the step.
"""

from __future__ import annotations

from sdk.games.plugin import GameState
from sdk.games.registry import get_game

from .record import MatchRecord
from .referee import final_ranks


class ReplayMismatchError(Exception):
    """The record disagrees with the engine at step ``seq`` (None: after the last step)."""

    def __init__(self, seq: int | None, message: str) -> None:
        where = "after the last step" if seq is None else f"at step {seq}"
        super().__init__(f"{where}: {message}")
        self.seq = seq


def resimulate(record: MatchRecord) -> GameState:
    """Replay ``record`` step by step; return the final state or raise ReplayMismatchError."""
    plugin = get_game(record.game)
    state = plugin.new_state(record.players, record.params)
    for expected_seq, step in enumerate(record.steps):
        if step.seq != expected_seq:
            raise ReplayMismatchError(step.seq, f"steps out of order (expected seq {expected_seq})")
        if state.is_terminal():
            raise ReplayMismatchError(step.seq, "the game was already over")
        if (step.kind == "chance") != state.is_chance_node():
            pending = (
                "a chance outcome" if state.is_chance_node() else f"a {plugin.decision_kind(state)} decision"
            )
            raise ReplayMismatchError(step.seq, f"recorded {step.kind!r} but the game awaits {pending}")
        if step.kind != "chance":
            if step.seat != state.current_player:
                raise ReplayMismatchError(
                    step.seq, f"seat {step.seat} decided, but seat {state.current_player} is to move"
                )
            if step.kind != plugin.decision_kind(state):
                raise ReplayMismatchError(
                    step.seq, f"recorded {step.kind!r}, the game awaits {plugin.decision_kind(state)!r}"
                )
        try:
            action = plugin.step_from_json(step.step)
        except ValueError as exc:
            raise ReplayMismatchError(step.seq, f"unreadable step: {exc}") from exc
        if step.source in {"default", "fallback"}:
            default = plugin.default_action(state)
            if action != default:
                raise ReplayMismatchError(
                    step.seq,
                    f"{step.source} step {step.step} is not the safe default {plugin.step_to_json(default)}",
                )
        try:
            state.apply(action)
        except ValueError as exc:
            raise ReplayMismatchError(step.seq, f"illegal step {step.step}: {exc}") from exc
    if not state.is_terminal():
        raise ReplayMismatchError(None, "the game is not over after the last step")
    if state.scores() != record.scores:
        raise ReplayMismatchError(None, f"scores {state.scores()} differ from the recorded {record.scores}")
    ranks = final_ranks(state.ranks(), [seat.forfeited for seat in record.seats])
    if ranks != record.ranks:
        raise ReplayMismatchError(None, f"ranks {ranks} differ from the recorded {record.ranks}")
    return state
