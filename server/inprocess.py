"""Trusted Python bots played in the referee's own process: a bot class instead of a bot server.

An :class:`InProcessClient` is a seat's connection like :class:`~server.client.BotClient`, but
every call goes to a bot object in this process. Each request is serialized to the bytes the wire
would carry and parsed back, then handed to the very handlers a bot server runs
(:class:`~sdk.serve.LifecycleServicer` and the game's ``DecisionTable.method_handlers``), and the
reply takes the same way back. A bot therefore sees exactly what it would see over gRPC, and the
referee gets the same replies, so a match plays out identically, only without the RPC.

Failures come back as the :class:`grpc.RpcError` a bot server would have produced, so the
referee's fault policy applies unchanged: an exception in the bot or a reply that cannot be
encoded is ``UNKNOWN``, an oversized reply ``RESOURCE_EXHAUSTED``, no reply in time
``DEADLINE_EXCEEDED``.

The clock: every call runs on a worker thread of the seat and the referee waits for it at most
the call's deadline. A call still running then is abandoned: its thread is left to finish (a
Python thread cannot be stopped) and later calls get a new thread. What cannot be enforced:
a bot that never returns keeps its thread and a share of the CPU until the process ends; code
holding the GIL in a C extension delays the referee itself; and nothing stops the bot from reading
the referee's memory (the seed among it), changing shared state, or ending the process. There is
no sandbox and no memory or CPU limit: this transport is for one's own code only.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import grpc
from google.protobuf.message import Message

from sdk.bot_loading import BotClassError, bot_class_problem, load_bot_class
from sdk.games.context_wire import context_from_message
from sdk.games.plugin import GamePlugin
from sdk.protocol import PROTOCOL_VERSION
from sdk.protocol.v1 import bot_pb2
from sdk.serve import LifecycleServicer

from .client import LIFECYCLE_TIMEOUT_S, MAX_REPLY_BYTES, BotConnection

__all__ = [
    "BotClassError",
    "InProcessClient",
    "InProcessError",
    "bot_class_problem",
    "load_bot_class",
]

_M = TypeVar("_M", bound=Message)
_NO_RPC_CONTEXT = cast(grpc.ServicerContext, None)
"""The handlers' RPC context argument: none of them reads it, and in-process there is no RPC."""


class InProcessError(grpc.RpcError):
    """A failed in-process call, as the status a bot server would have answered with."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self._code, self._details = code, details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


class _AbandonedError(Exception):
    """The call did not return in time; its thread is left behind."""


class _BotRaisedError(Exception):
    """What the bot's code raised, as its message (kept apart from what interrupts the referee)."""


class _CallThread:
    """One daemon thread that runs a seat's calls one at a time."""

    _STOP = object()

    def __init__(self, name: str) -> None:
        self._inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._outbox: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name=name, daemon=True).start()

    def _serve(self) -> None:
        while (call := self._inbox.get()) is not self._STOP:
            try:
                self._outbox.put((True, cast(Callable[[], Any], call)()))
            except BaseException as exc:  # whatever the bot raises is its fault, not the referee's
                self._outbox.put((False, exc))

    def run(self, call: Callable[[], Any], timeout_s: float) -> Any:
        """``call()``'s result; its exception re-raised; :class:`_AbandonedError` after ``timeout_s``."""
        self._inbox.put(call)
        try:
            ok, value = self._outbox.get(timeout=timeout_s)
        except queue.Empty:
            raise _AbandonedError from None
        if ok:
            return value
        raise _BotRaisedError(str(value))

    def stop(self) -> None:
        """Let the thread end once its current call, if any, returns."""
        self._inbox.put(self._STOP)


class InProcessClient(BotConnection):
    """A seat's bot object, called like a bot server: same messages, same handlers, same statuses."""

    def __init__(self, target: str, plugin: GamePlugin) -> None:
        """A new instance of the bot ``target`` names; raises :class:`BotClassError`, or what the
        bot's constructor raises."""
        self.address = f"in-process {target}"
        self.bot = load_bot_class(target)()
        self.plugin = plugin
        self.lifecycle = LifecycleServicer(self.bot)
        handlers = plugin.decisions.method_handlers(self.bot, context_from_message)
        self.calls = {spec.kind: handlers[spec.rpc] for spec in plugin.decisions}
        self._thread: _CallThread | None = None

    def hello(self) -> bot_pb2.HelloReply:
        request = bot_pb2.HelloRequest(protocol_version=PROTOCOL_VERSION)
        return self._lifecycle(self.lifecycle.Hello, request, bot_pb2.HelloReply)

    def _start(self, request: bot_pb2.StartMatchRequest) -> None:
        self._lifecycle(self.lifecycle.StartMatch, request, bot_pb2.StartMatchReply)

    def _end(self, request: bot_pb2.EndMatchRequest) -> None:
        self._lifecycle(self.lifecycle.EndMatch, request, bot_pb2.EndMatchReply)

    def decide(self, kind: str, request: Message, timeout_s: float) -> Message:
        method = self.calls[kind]
        assert method.unary_unary is not None and method.request_deserializer is not None
        assert method.response_serializer is not None
        answer, parse, serialize = method.unary_unary, method.request_deserializer, method.response_serializer
        data = request.SerializeToString()
        reply = self._call(lambda: serialize(answer(parse(data), _NO_RPC_CONTEXT)), timeout_s)
        reply_type: type[Message] = self.plugin.decisions[kind].reply_type
        return reply_type.FromString(reply)

    def close(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread = None

    def _lifecycle(
        self, method: Callable[[Any, grpc.ServicerContext], Message], request: Message, reply_type: type[_M]
    ) -> _M:
        """A lifecycle call through the bot server's own servicer, as bytes both ways."""
        data = request.SerializeToString()
        request_type = type(request)
        reply = self._call(
            lambda: method(request_type.FromString(data), _NO_RPC_CONTEXT).SerializeToString(),
            LIFECYCLE_TIMEOUT_S,
        )
        return reply_type.FromString(reply)

    def _call(self, call: Callable[[], bytes], timeout_s: float) -> bytes:
        """Run ``call`` on the seat's thread within ``timeout_s``; failures as a bot server's statuses."""
        if self._thread is None:
            self._thread = _CallThread(f"in-process {self.bot.name}")
        try:
            reply = self._thread.run(call, timeout_s)
        except _AbandonedError:
            self._thread.stop()
            self._thread = None
            raise InProcessError(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded") from None
        except _BotRaisedError as raised:  # as a bot server reports an exception of its handler
            details = f"Exception calling application: {raised}"
            raise InProcessError(grpc.StatusCode.UNKNOWN, details) from None
        if len(reply) > MAX_REPLY_BYTES:
            raise InProcessError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"Received message larger than max ({len(reply)} vs. {MAX_REPLY_BYTES})",
            )
        return cast(bytes, reply)
