"""A connection from the referee to one bot server."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format, struct_pb2, text_format
from google.protobuf.message import Message

from sdk.games.plugin import GamePlugin
from sdk.protocol import PROTOCOL_VERSION
from sdk.protocol.v1 import bot_pb2, bot_pb2_grpc

#: Largest reply the referee accepts; anything bigger fails with RESOURCE_EXHAUSTED.
MAX_REPLY_BYTES = 4 * 1024 * 1024
LIFECYCLE_TIMEOUT_S = 5.0
MAX_DESCRIBED_CHARS = 200


def describe_reply(reply: Message) -> str:
    """A reply as its proto fields, ``KeepReply {decision_id: 3 reroll: 99}``, cut short if long:
    what a bot author needs to find the field at fault, whatever the language."""
    fields = text_format.MessageToString(reply, as_one_line=True)
    if len(fields) > MAX_DESCRIBED_CHARS:
        fields = fields[:MAX_DESCRIBED_CHARS] + " ..."
    return f"{reply.DESCRIPTOR.name} {{{fields}}}"


class PendingDecision(ABC):
    """A decision call, timed from when it was sent to when its reply arrived."""

    sent_ns: int
    answered_ns: int

    @abstractmethod
    def reply(self) -> Message:
        """Wait for the reply; raises ``grpc.RpcError`` on timeout, error or oversized reply."""

    @property
    def elapsed_us(self) -> int:
        return (self.answered_ns - self.sent_ns) // 1000


class MadeDecision(PendingDecision):
    """A call made and waited for at once: what a seat asked alone needs. A blocking call costs
    far less than a future, for which grpcio starts a thread on every idle channel."""

    def __init__(self, call: Callable[[], Message]) -> None:
        self.sent_ns = time.perf_counter_ns()
        self._reply: Message | None = None
        self._error: grpc.RpcError | None = None
        try:
            self._reply = call()
        except grpc.RpcError as exc:
            self._error = exc
        self.answered_ns = time.perf_counter_ns()

    def reply(self) -> Message:
        if self._error is not None:
            raise self._error
        assert self._reply is not None
        return self._reply


class FutureDecision(PendingDecision):
    """A call left under way while other seats are asked the same moment."""

    def __init__(self, future: grpc.Future[Any], sent_ns: int) -> None:
        self.sent_ns = sent_ns
        self.answered_ns = 0
        self._future = future
        future.add_done_callback(self._answered)

    def _answered(self, _: object) -> None:
        self.answered_ns = self.answered_ns or time.perf_counter_ns()

    def reply(self) -> Message:
        try:
            reply: Message = self._future.result()
        finally:
            self._answered(None)  # the callback may still be on its way
        return reply


@dataclass(frozen=True, slots=True)
class Tls:
    """TLS towards a remote bot: ``ca_file`` to trust (default: system roots)."""

    ca_file: Path | None = None
    server_name: str | None = None  # expected certificate name, if not the host's


class BotConnection(ABC):
    """What the referee calls on a seat's bot, however it is reached: over gRPC
    (:class:`BotClient`) or in this process (:class:`server.inprocess.InProcessClient`).
    Every call raises ``grpc.RpcError`` with the status a bot server would answer with."""

    address: str
    plugin: GamePlugin

    @abstractmethod
    def hello(self) -> bot_pb2.HelloReply: ...

    @abstractmethod
    def decide(self, kind: str, request: Message, timeout_s: float) -> Message:
        """One decision call; raises ``grpc.RpcError`` on timeout, error or oversized reply."""

    def ask(
        self, kind: str, request: Message, timeout_s: float, *, together: bool = False
    ) -> PendingDecision:
        """One decision call, made at once; ``together`` (other seats are asked the same moment)
        lets a transport that can leave the call under way do so."""
        return MadeDecision(lambda: self.decide(kind, request, timeout_s))

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _start(self, request: bot_pb2.StartMatchRequest) -> None: ...

    @abstractmethod
    def _end(self, request: bot_pb2.EndMatchRequest) -> None: ...

    def start_match(
        self,
        *,
        match_id: str,
        seat: int,
        players: int,
        params: Mapping[str, Any],
        decision_ms: int,
        bank_ms: int,
    ) -> None:
        struct = struct_pb2.Struct()
        json_format.ParseDict(dict(params), struct)
        self._start(
            bot_pb2.StartMatchRequest(
                match_id=match_id,
                game=self.plugin.name,
                seat=seat,
                players=players,
                params=struct,
                time_control=bot_pb2.TimeControl(decision_ms=decision_ms, bank_ms=bank_ms),
            )
        )

    def end_match(
        self,
        *,
        match_id: str,
        scores: Sequence[float],
        ranks: list[int],
        forfeited: list[bool],
        completed: bool,
    ) -> None:
        self._end(
            bot_pb2.EndMatchRequest(
                match_id=match_id,
                scores=[round(score) for score in scores],
                exact_scores=scores,
                ranks=ranks,
                forfeited=forfeited,
                reason=bot_pb2.END_REASON_COMPLETED if completed else bot_pb2.END_REASON_ABORTED,
            )
        )


class BotClient(BotConnection):
    """Lifecycle calls and decision calls on one bot, with optional TLS and token."""

    def __init__(
        self, address: str, plugin: GamePlugin, *, tls: Tls | None = None, token: str | None = None
    ) -> None:
        options: list[tuple[str, Any]] = [("grpc.max_receive_message_length", MAX_REPLY_BYTES)]
        if tls is None:
            self.channel = grpc.insecure_channel(address, options=options)
        else:
            roots = tls.ca_file.read_bytes() if tls.ca_file else None
            if tls.server_name:
                options.append(("grpc.ssl_target_name_override", tls.server_name))
            self.channel = grpc.secure_channel(address, grpc.ssl_channel_credentials(roots), options=options)
        self.address = address
        self.metadata: tuple[tuple[str, str], ...] = (("authorization", f"Bearer {token}"),) if token else ()
        self.lifecycle = bot_pb2_grpc.BotStub(self.channel)
        self.calls = plugin.decisions.client_calls(self.channel)
        self.plugin = plugin

    def hello(self) -> bot_pb2.HelloReply:
        return self.lifecycle.Hello(
            bot_pb2.HelloRequest(protocol_version=PROTOCOL_VERSION),
            timeout=LIFECYCLE_TIMEOUT_S,
            metadata=self.metadata,
        )

    def _start(self, request: bot_pb2.StartMatchRequest) -> None:
        self.lifecycle.StartMatch(request, timeout=LIFECYCLE_TIMEOUT_S, metadata=self.metadata)

    def _end(self, request: bot_pb2.EndMatchRequest) -> None:
        self.lifecycle.EndMatch(request, timeout=LIFECYCLE_TIMEOUT_S, metadata=self.metadata)

    def decide(self, kind: str, request: Message, timeout_s: float) -> Message:
        reply: Message = self.calls[kind](request, timeout=timeout_s, metadata=self.metadata)
        return reply

    def ask(
        self, kind: str, request: Message, timeout_s: float, *, together: bool = False
    ) -> PendingDecision:
        """One decision call; asked ``together`` with other seats, left under way so they think at once."""
        if not together:
            return super().ask(kind, request, timeout_s)
        sent_ns = time.perf_counter_ns()
        future = self.calls[kind].future(request, timeout=timeout_s, metadata=self.metadata)
        return FutureDecision(future, sent_ns)

    def close(self) -> None:
        self.channel.close()
