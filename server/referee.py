"""The referee: plays one match between bot seats, enforcing rules and clocks.

Fault policy (docs/fault-policy.md): a timeout, an error status, an empty,
malformed, stale or illegal reply is a *strike*: the game's safe default is
played for that decision and the match goes on. After ``strikes_to_forfeit``
strikes, or as soon as a bot cannot be reached, the seat is *forfeited*: the
safe default plays it to the end and it ranks below every other seat.

Game-agnostic: everything about the game goes through its :class:`GamePlugin`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import grpc

from sdk.games.plugin import DecisionContext, GamePlugin, GameState

from .bot_errors import describe_status
from .bot_host import BotHost
from .client import PendingDecision, describe_reply
from .launcher import Limits
from .record import MatchRecord, StepRecord
from .seats import Seat, SeatSpec, open_seats
from .seeds import derive_seed

StepCallback = Callable[[GameState, StepRecord], None]


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Per-decision time plus a per-match bank (chess-clock style), in ms."""

    decision_ms: int = 1000
    bank_ms: int = 10_000


@dataclass(frozen=True, slots=True)
class RefereeConfig:
    time_control: TimeControl = TimeControl()
    strikes_to_forfeit: int = 3
    startup_timeout_s: float = 20.0
    limits: Limits = field(default_factory=Limits)


@dataclass(frozen=True, slots=True)
class _Strike:
    """A failed decision: why, and the forfeit it brings at once (an unreachable bot), if any."""

    reason: str
    forfeit: str | None = None


def final_ranks(engine_ranks: Sequence[int], forfeited: Sequence[bool]) -> list[int]:
    """Competition ranks where every forfeited seat ranks below every other seat."""
    keys = [(lost, rank) for lost, rank in zip(forfeited, engine_ranks, strict=True)]
    return [1 + sum(other < key for other in keys) for key in keys]


class Referee:
    """Plays one match on already-connected seats."""

    def __init__(
        self,
        plugin: GamePlugin,
        seats: list[Seat],
        *,
        match_id: str,
        seed: int,
        params: Mapping[str, Any],
        config: RefereeConfig,
        on_step: StepCallback | None = None,
    ) -> None:
        self.plugin = plugin
        self.seats = seats
        self.match_id = match_id
        self.seed = seed
        self.params = plugin.normalize_params(params)
        self.config = config
        self.on_step = on_step
        self.record = MatchRecord(
            match_id=match_id,
            game=plugin.name,
            seed=seed,
            players=len(seats),
            params=self.params,
            time_control=asdict(config.time_control),
            seats=[seat.record for seat in seats],
        )

    def play(self) -> MatchRecord:
        """Play the match to its end and return the complete record."""
        started = time.perf_counter()
        tc = self.config.time_control
        for seat in self.seats:
            if seat.active and seat.client is not None:
                try:
                    seat.client.start_match(
                        match_id=self.match_id,
                        seat=seat.record.seat,
                        players=len(self.seats),
                        params=self.params,
                        decision_ms=tc.decision_ms,
                        bank_ms=tc.bank_ms,
                    )
                except grpc.RpcError as exc:
                    if exc.code() == grpc.StatusCode.UNAVAILABLE:
                        self._lost_contact(seat, exc)
                    else:
                        seat.forfeit(f"StartMatch failed: {describe_status(exc, seat.log)}")
        state = self.plugin.new_state(len(self.seats), self.params)
        chance = random.Random(derive_seed(self.seed, self.plugin.chance_stream))
        while not state.is_terminal():
            if state.is_chance_node():
                outcome = state.sample_chance(chance)
                state.apply(outcome)
                self._record(
                    state, StepRecord(len(self.record.steps), "chance", self.plugin.step_to_json(outcome))
                )
            else:
                self._decide(state, self.plugin.deciding_seats(state))
        self._finish(state, time.perf_counter() - started)
        return self.record

    def _record(self, state: GameState, step: StepRecord) -> None:
        self.record.steps.append(step)
        if self.on_step is not None:
            self.on_step(state, step)

    def _decide(self, state: GameState, numbers: Sequence[int]) -> None:
        """Ask every deciding seat at once, from this same state; apply the replies in seat order.

        Each seat is asked from its own observation and runs on its own clock; its strikes and
        defaults are its own, exactly as when it is asked alone.
        """
        kind = self.plugin.decision_kind(state)
        asked_at = len(self.record.steps)
        together = len(numbers) > 1
        pending: list[tuple[Seat, StepRecord, PendingDecision | None]] = []
        for number in numbers:
            seat = self.seats[number]
            seat.decisions += 1
            step = StepRecord(asked_at, kind, {}, seat=number, decision_id=seat.decisions)
            step.asked_at = asked_at if together else None
            reachable = seat.active and seat.client is not None
            call = self._ask_bot(state, seat, step, together) if reachable else None
            pending.append((seat, step, call))
        for seat, step, call in pending:
            if state.is_chance_node() or state.current_player != seat.record.seat:
                raise RuntimeError(
                    f"{self.plugin.name}: seats {list(numbers)} were asked together, but seat "
                    f"{seat.record.seat} is not the next to decide (deciding_seats broke its contract)"
                )
            step.seq = len(self.record.steps)
            self._conclude(state, seat, step, call)
            self._record(state, step)

    def _conclude(self, state: GameState, seat: Seat, step: StepRecord, call: PendingDecision | None) -> None:
        """Apply the seat's answer, or the safe default after a strike (or for a forfeited seat)."""
        if call is not None:
            strike = self._settle(state, seat, step, call)
            if strike is None:
                return
            step.strike = strike.reason
            seat.record.strikes += 1
            seat.fault(
                f"decision {step.decision_id} ({step.kind}): {strike.reason}"
            )  # the strike, then its forfeit
            if strike.forfeit is not None:
                seat.forfeit(strike.forfeit)
            elif seat.record.strikes >= self.config.strikes_to_forfeit:
                seat.forfeit(f"{seat.record.strikes} strikes")
            step.source = "default"
        else:
            step.source = "fallback"
        action = self.plugin.default_action(state)
        state.apply(action)
        step.step = self.plugin.step_to_json(action)

    def _ask_bot(self, state: GameState, seat: Seat, step: StepRecord, together: bool) -> PendingDecision:
        """Send the seat's bot its request, built from its own observation of ``state``."""
        assert seat.client is not None and step.decision_id is not None
        tc = self.config.time_control
        context = DecisionContext(
            self.match_id, step.decision_id, seat.record.seat, tc.decision_ms, int(seat.bank_ms)
        )
        spec = self.plugin.decisions[step.kind]
        request = spec.encode_request(self.plugin.observe(state, seat.record.seat), context)
        return seat.client.ask(step.kind, request, self._timeout_s(seat), together=together)

    def _timeout_s(self, seat: Seat) -> float:
        return (self.config.time_control.decision_ms + int(seat.bank_ms)) / 1000

    def _settle(
        self, state: GameState, seat: Seat, step: StepRecord, call: PendingDecision
    ) -> _Strike | None:
        """Wait for the bot's reply and apply its action; return the strike if it fails."""
        timeout_s = self._timeout_s(seat)
        spec = self.plugin.decisions[step.kind]
        try:
            reply = call.reply()
        except grpc.RpcError as exc:
            self._charge(seat, step, call)
            code = exc.code()
            if code == grpc.StatusCode.DEADLINE_EXCEEDED and (step.latency_us or 0) >= timeout_s * 1e6 * 0.99:
                seat.bank_ms = 0.0
                return _Strike(f"timeout: no reply within {timeout_s * 1000:.0f} ms")
            if code == grpc.StatusCode.UNAVAILABLE:
                lost = seat.unreachable_reason(f"{code.name}: {exc.details()}")
                return _Strike(f"unreachable: {exc.details()}", forfeit=lost)
            if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                return _Strike(f"reply too large: {exc.details()}")
            return _Strike(describe_status(exc, seat.log))
        self._charge(seat, step, call)
        if reply.ByteSize() == 0:
            return _Strike("empty reply")
        answered = getattr(reply, "decision_id", None)
        if answered != step.decision_id:
            return _Strike(f"stale reply: it answers decision {answered}, not {step.decision_id}")
        try:
            action = spec.decode_reply(reply)
        except (ValueError, TypeError) as exc:
            return _Strike(f"malformed reply: {exc} (in {describe_reply(reply)})")
        step.reply = self.plugin.step_to_json(action)
        try:
            state.apply(action)
        except (ValueError, TypeError) as exc:
            return _Strike(f"illegal action: {exc} (in {describe_reply(reply)})")
        step.step, step.reply, step.source = step.reply, None, "bot"
        return None

    def _charge(self, seat: Seat, step: StepRecord, call: PendingDecision) -> None:
        """Record the latency; time beyond the decision's own allowance comes off the bank."""
        used_us = call.elapsed_us
        step.latency_us = used_us
        seat.record.time_used_ms += used_us / 1000
        over_ms = used_us / 1000 - self.config.time_control.decision_ms
        if over_ms > 0:
            seat.bank_ms = max(0.0, seat.bank_ms - over_ms)

    def _lost_contact(self, seat: Seat, exc: grpc.RpcError) -> None:
        seat.forfeit(seat.unreachable_reason(f"{exc.code().name}: {exc.details()}"))

    def _finish(self, state: GameState, duration_s: float) -> None:
        record = self.record
        record.scores = list(state.scores())
        forfeited = [seat.record.forfeited for seat in self.seats]
        record.ranks = final_ranks(state.ranks(), forfeited)
        for seat, score, rank in zip(self.seats, record.scores, record.ranks, strict=True):
            seat.record.score, seat.record.rank = score, rank
        record.summary = self.plugin.summary(state)
        record.duration_s = duration_s
        for seat in self.seats:
            alive = seat.process is None or seat.process.exit_code() is None
            if seat.client is not None and alive:
                try:
                    seat.client.end_match(
                        match_id=self.match_id,
                        scores=record.scores,
                        ranks=record.ranks,
                        forfeited=forfeited,
                        completed=True,
                    )
                except grpc.RpcError as exc:
                    seat.fault(f"EndMatch failed: {describe_status(exc, seat.log)}")


def run_match(
    plugin: GamePlugin,
    specs: Sequence[SeatSpec],
    *,
    match_id: str,
    seed: int,
    params: Mapping[str, Any] | None = None,
    config: RefereeConfig | None = None,
    log_dir: Path,
    on_step: StepCallback | None = None,
    host: BotHost | None = None,
) -> MatchRecord:
    """Bring up the seats, play one match, always tear the bots down; return the record.

    With a ``host``, launched bots come from it and go back to it when they played cleanly
    (:mod:`server.bot_host`); without one, every launched bot is new and stopped at the end.
    """
    if not plugin.min_players <= len(specs) <= plugin.max_players:
        raise ValueError(
            f"{plugin.title} needs {plugin.min_players}-{plugin.max_players} seats, got {len(specs)}"
        )
    config = config or RefereeConfig()
    opened = (
        open_seats(
            plugin,
            specs,
            log_dir=log_dir,
            match_id=match_id,
            limits=config.limits,
            startup_timeout_s=config.startup_timeout_s,
            bank_ms=config.time_control.bank_ms,
        )
        if host is None
        else host.seats(
            plugin,
            specs,
            log_dir=log_dir,
            match_id=match_id,
            seed=seed,
            limits=config.limits,
            startup_timeout_s=config.startup_timeout_s,
            bank_ms=config.time_control.bank_ms,
        )
    )
    with opened as seats:
        referee = Referee(
            plugin, seats, match_id=match_id, seed=seed, params=params or {}, config=config, on_step=on_step
        )
        return referee.play()
