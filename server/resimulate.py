"""Re-simulate a match record with the game's engine and check that it holds.

Every step is re-applied with full rule checks. Each chance outcome must be the
one the match seed gives (the referee draws them from
``derive_seed(seed, plugin.chance_stream)``); each seat's decision ids must
count from 1;
strike substitutions and forfeited seats must show the game's safe default;
strike counts, scores and ranks must match. The first disagreement raises
:class:`ReplayMismatchError` naming the step, so a tampered replay is caught
exactly where it was changed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sdk.games.plugin import GamePlugin, GameState
from sdk.games.registry import get_game

from .record import MatchRecord, StepRecord
from .referee import final_ranks
from .seeds import derive_seed

#: Called with each step, its decoded action and the state it is applied to.
StepObserver = Callable[[StepRecord, Any, GameState], None]


class ReplayMismatchError(Exception):
    """The record disagrees with the engine at step ``seq`` (None: after the last step)."""

    def __init__(self, seq: int | None, message: str, context: str = "") -> None:
        where = "after the last step" if seq is None else f"at step {seq}"
        super().__init__(f"{where}{f' ({context})' if context else ''}: {message}")
        self.seq, self.message, self.context = seq, message, context


def resimulate(record: MatchRecord, observer: StepObserver | None = None) -> GameState:
    """Replay ``record`` step by step; return the final state or raise ReplayMismatchError."""
    plugin = get_game(record.game)
    try:
        state = plugin.new_state(record.players, record.params)
    except (ValueError, TypeError, KeyError) as exc:
        raise ReplayMismatchError(0, f"cannot set up the game: {exc}") from exc
    checker = _StepChecker(plugin, record)
    for expected_seq, step in enumerate(record.steps):
        try:
            action = checker.check(state, step, expected_seq)
            if observer is not None:
                observer(step, action, state)
            try:
                state.apply(action)
            except ValueError as exc:
                raise ReplayMismatchError(step.seq, f"illegal step {step.step}: {exc}") from exc
        except ReplayMismatchError as exc:
            raise ReplayMismatchError(exc.seq, exc.message, _context(plugin, state, step)) from None
    _check_result(record, state)
    return state


def _context(plugin: GamePlugin, state: GameState, step: StepRecord) -> str:
    """Where a step sits in the game, for error messages."""
    who = "" if step.seat is None else f" by seat {step.seat}"
    return f"{step.kind}{who}, turn {plugin.turn(state)}"


class _StepChecker:
    """Checks each recorded step against the game before it is applied."""

    def __init__(self, plugin: GamePlugin, record: MatchRecord) -> None:
        self.plugin, self.record = plugin, record
        self.chance = random.Random(derive_seed(record.seed, plugin.chance_stream))
        self.decisions = [0] * record.players
        self.fallback_seen: set[int] = set()

    def check(self, state: GameState, step: StepRecord, expected_seq: int) -> Any:
        """The step's action, once it is known to be the one the game awaits."""
        plugin = self.plugin
        if step.seq != expected_seq:
            raise ReplayMismatchError(step.seq, f"steps out of order (expected seq {expected_seq})")
        if state.is_terminal():
            raise ReplayMismatchError(step.seq, "the game was already over")
        _check_turn(plugin, state, step)
        try:
            action = plugin.step_from_json(step.step)
        except (ValueError, TypeError, KeyError) as exc:
            raise ReplayMismatchError(step.seq, f"unreadable step {step.step}: {exc}") from exc
        if step.kind == "chance":
            expected = plugin.step_to_json(state.sample_chance(self.chance))
            if plugin.step_to_json(action) != expected:
                raise ReplayMismatchError(
                    step.seq, f"recorded chance outcome {step.step} but the match seed gives {expected}"
                )
            return action
        assert step.seat is not None
        self.decisions[step.seat] += 1
        expected_id = self.decisions[step.seat]
        if step.decision_id != expected_id:
            raise ReplayMismatchError(
                step.seq,
                f"decision id {step.decision_id}, expected {expected_id} (each seat counts from 1)",
            )
        _check_source(plugin, state, self.record, step, action, self.fallback_seen)
        return action


def _check_turn(plugin: GamePlugin, state: GameState, step: StepRecord) -> None:
    """The step is of the kind, and by the seat, that the game awaits."""
    if (step.kind == "chance") != state.is_chance_node():
        pending = (
            "a chance outcome" if state.is_chance_node() else f"a {plugin.decision_kind(state)} decision"
        )
        raise ReplayMismatchError(step.seq, f"recorded {step.kind!r} but the game awaits {pending}")
    if step.kind == "chance":
        if step.source != "chance" or step.seat is not None:
            raise ReplayMismatchError(step.seq, "a chance step must have source 'chance' and no seat")
        return
    if step.seat != state.current_player:
        raise ReplayMismatchError(
            step.seq, f"seat {step.seat} decided, but seat {state.current_player} is to move"
        )
    if step.kind != plugin.decision_kind(state):
        raise ReplayMismatchError(
            step.seq, f"recorded {step.kind!r}, the game awaits {plugin.decision_kind(state)!r}"
        )


def _check_source(
    plugin: GamePlugin,
    state: GameState,
    record: MatchRecord,
    step: StepRecord,
    action: Any,
    fallback_seen: set[int],
) -> None:
    """Who made the decision agrees with the strikes and forfeits on record."""
    assert step.seat is not None
    if step.source == "bot":
        if step.strike is not None or step.seat in fallback_seen:
            raise ReplayMismatchError(
                step.seq, "a bot's own step cannot carry a strike or follow its seat's forfeit"
            )
        return
    if step.source == "default" and not step.strike:
        raise ReplayMismatchError(step.seq, "a default step must say which strike it replaces")
    if step.source == "fallback":
        if not record.seats[step.seat].forfeited:
            raise ReplayMismatchError(
                step.seq, f"fallback step for seat {step.seat}, which was not forfeited"
            )
        fallback_seen.add(step.seat)
    elif step.source != "default":
        raise ReplayMismatchError(step.seq, f"unknown step source {step.source!r}")
    default = plugin.default_action(state)
    if action != default:
        raise ReplayMismatchError(
            step.seq, f"{step.source} step {step.step} is not the safe default {plugin.step_to_json(default)}"
        )


def _check_result(record: MatchRecord, state: GameState) -> None:
    if not state.is_terminal():
        raise ReplayMismatchError(None, "the game is not over after the last step")
    for seat in record.seats:
        struck = sum(1 for s in record.steps if s.seat == seat.seat and s.strike)
        if struck != seat.strikes:
            raise ReplayMismatchError(
                None, f"seat {seat.seat} has {seat.strikes} strikes on record but {struck} struck steps"
            )
    if state.scores() != record.scores:
        raise ReplayMismatchError(None, f"scores {state.scores()} differ from the recorded {record.scores}")
    ranks = final_ranks(state.ranks(), [seat.forfeited for seat in record.seats])
    if ranks != record.ranks:
        raise ReplayMismatchError(None, f"ranks {ranks} differ from the recorded {record.ranks}")
