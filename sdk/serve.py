"""Serve a bot over gRPC: its games' decision services, the lifecycle service,
standard health checking and server reflection.

``run(bot)`` is what a bot's ``main`` calls: it listens where ``--address`` or
``--port`` says, else at the ``SMTOURNEY_ADDRESS`` environment variable (how the
referee hands a launched bot its address: a Unix socket, ``unix:/path``, in the
sandbox), else on the port in ``SMTOURNEY_PORT``; it serves until SIGTERM or
SIGINT, then shuts down gracefully.

An exception raised by the bot's code is written with its traceback to standard
error (the bot's log, for a launched bot) and answered with an error status that
names it (:class:`ReportRaised`), so the referee can say what went wrong.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from sdk.bot import Bot, MatchInfo, MatchResult
from sdk.games.context_wire import context_from_message
from sdk.games.registry import get_game
from sdk.games.scores import plain_score
from sdk.protocol import PROTOCOL_VERSION
from sdk.protocol.v1 import bot_pb2, bot_pb2_grpc

PORT_ENV = "SMTOURNEY_PORT"
ADDRESS_ENV = "SMTOURNEY_ADDRESS"
TOKEN_ENV = "SMTOURNEY_TOKEN"
#: Calls that need no token: health checks and reflection, which reveal nothing.
_OPEN_PREFIXES = ("/grpc.health.v1.Health/", "/grpc.reflection.")
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
RAISED_KEY = "smtourney-raised"
"""Trailing metadata of an error status that reports an exception of the bot: its type's name."""
_MAX_DETAILS = 1000
_END_REASONS = {bot_pb2.END_REASON_COMPLETED: "completed", bot_pb2.END_REASON_ABORTED: "aborted"}


class LifecycleServicer(bot_pb2_grpc.BotServicer):
    """``smtourney.v1.Bot``: identity and match hooks."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def Hello(self, request: bot_pb2.HelloRequest, context: grpc.ServicerContext) -> bot_pb2.HelloReply:
        bot = self.bot
        return bot_pb2.HelloReply(
            name=bot.name,
            version=bot.version,
            author=bot.author,
            games=bot.games,
            protocol_version=PROTOCOL_VERSION,
        )

    def StartMatch(
        self, request: bot_pb2.StartMatchRequest, context: grpc.ServicerContext
    ) -> bot_pb2.StartMatchReply:
        self.bot.start_match(
            MatchInfo(
                match_id=request.match_id,
                game=request.game,
                seat=request.seat,
                players=request.players,
                params=json_format.MessageToDict(request.params),
                decision_ms=request.time_control.decision_ms,
                bank_ms=request.time_control.bank_ms,
            )
        )
        return bot_pb2.StartMatchReply()

    def EndMatch(
        self, request: bot_pb2.EndMatchRequest, context: grpc.ServicerContext
    ) -> bot_pb2.EndMatchReply:
        self.bot.end_match(
            MatchResult(
                match_id=request.match_id,
                scores=tuple(plain_score(score) for score in request.exact_scores) or tuple(request.scores),
                ranks=tuple(request.ranks),
                reason=_END_REASONS.get(request.reason, "unspecified"),
                forfeited=tuple(request.forfeited),
            )
        )
        return bot_pb2.EndMatchReply()


class TokenCheck(grpc.ServerInterceptor):
    """Refuse calls whose ``authorization`` metadata is not ``Bearer <token>``."""

    def __init__(self, token: str) -> None:
        self.expected = f"Bearer {token}"

        def deny(request: object, context: grpc.ServicerContext) -> None:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong bearer token")

        self.deny: grpc.RpcMethodHandler[Any, Any] = grpc.unary_unary_rpc_method_handler(deny)

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler[Any, Any] | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        if handler_call_details.method.startswith(_OPEN_PREFIXES):
            return continuation(handler_call_details)
        metadata = dict(handler_call_details.invocation_metadata)
        if metadata.get("authorization") != self.expected:
            return self.deny
        return continuation(handler_call_details)


class ReportRaised(grpc.ServerInterceptor):
    """Answer an exception raised in a bot's method with its type and message, and write its
    traceback to standard error, rather than gRPC's bare ``Exception calling application``."""

    def __init__(self) -> None:
        self.reporting: dict[
            str, tuple[grpc.RpcMethodHandler[Any, Any], grpc.RpcMethodHandler[Any, Any]]
        ] = {}
        """Each method's handler and its reporting twin, made on its first call (not on every call)."""

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler[Any, Any] | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        handler = continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler
        method = handler_call_details.method
        made = self.reporting.get(method)
        if made is None or made[0] is not handler:
            made = self.reporting[method] = (handler, self._reporting(method, handler))
        return made[1]

    @staticmethod
    def _reporting(method: str, handler: grpc.RpcMethodHandler[Any, Any]) -> grpc.RpcMethodHandler[Any, Any]:
        behaviour = handler.unary_unary
        assert behaviour is not None

        def reported(request: Any, context: grpc.ServicerContext) -> Any:
            try:
                return behaviour(request, context)
            except Exception as exc:
                raised = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                print(f"{method} raised {raised}", file=sys.stderr)
                traceback.print_exc(file=sys.stderr)
                sys.stderr.flush()
                context.set_trailing_metadata(((RAISED_KEY, type(exc).__name__),))
                context.abort(grpc.StatusCode.UNKNOWN, raised[:_MAX_DETAILS])

        return grpc.unary_unary_rpc_method_handler(
            reported,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )


@dataclass(frozen=True, slots=True)
class ServerTls:
    """PEM certificate chain and private key for serving over TLS."""

    cert_chain: bytes
    private_key: bytes


@dataclass
class BotServer:
    """A running bot server, the port it bound (0 on a Unix socket) and its address."""

    server: grpc.Server
    port: int
    health: health.HealthServicer
    address: str = ""

    def stop(self, grace: float = 2.0) -> None:
        """Report NOT_SERVING, finish calls in flight (up to ``grace`` s), stop."""
        self.health.enter_graceful_shutdown()
        self.server.stop(grace).wait()


def serve(
    bot: Bot,
    port: int = 0,
    host: str = "127.0.0.1",
    *,
    tls: ServerTls | None = None,
    token: str | None = None,
    max_workers: int = 4,
    address: str | None = None,
) -> BotServer:
    """Start serving ``bot`` on ``host:port`` (0 picks a free port), or on ``address``
    when given (any gRPC address, e.g. ``unix:/run/bot.sock``).

    With ``tls`` the port speaks TLS; with ``token`` every bot call must carry
    ``authorization: Bearer <token>`` metadata (health and reflection stay open).
    """
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers),
        interceptors=[TokenCheck(token), ReportRaised()] if token else [ReportRaised()],
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.so_reuseport", 0),
        ],
    )
    bot_pb2_grpc.add_BotServicer_to_server(LifecycleServicer(bot), server)
    services = [bot_pb2.DESCRIPTOR.services_by_name["Bot"].full_name]
    for game in bot.games:
        decisions = get_game(game).decisions
        if decisions.service_name in services:
            continue  # one service for several games (a game family's): registered once
        if not bot.answers_every_kind(decisions.kinds):
            missing = ", ".join(decisions.missing_methods(type(bot)))
            raise TypeError(f"{type(bot).__name__} plays {game} but has no method for: {missing}")
        server.add_registered_method_handlers(
            decisions.service_name, decisions.method_handlers(bot, context_from_message)
        )
        services.append(decisions.service_name)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for service in ["", *services]:
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        [*services, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME],
        server,
    )
    unix = address is not None and address.startswith("unix:")
    address = address or f"{host}:{port}"
    if tls is None:
        bound = server.add_insecure_port(address)
    else:
        credentials = grpc.ssl_server_credentials([(tls.private_key, tls.cert_chain)])
        bound = server.add_secure_port(address, credentials)
    if bound == 0:
        raise OSError(f"cannot listen on {address}")
    server.start()
    if unix:
        return BotServer(server, 0, health_servicer, address)
    return BotServer(server, bound, health_servicer, f"{address.rsplit(':', 1)[0]}:{bound}")


def run(bot: Bot, argv: Sequence[str] | None = None) -> None:
    """Serve ``bot`` until SIGTERM/SIGINT (the entry point of a bot process)."""
    parser = argparse.ArgumentParser(description=f"Serve the {bot.name} bot over gRPC.")
    parser.add_argument("--port", type=int, default=None, help=f"TCP port (default: ${PORT_ENV}, else free)")
    parser.add_argument(
        "--address",
        default=None,
        help=f"listen on this gRPC address instead, e.g. unix:/tmp/bot.sock (default: ${ADDRESS_ENV})",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for remote play)")
    parser.add_argument("--tls-cert", type=Path, help="PEM certificate chain: serve over TLS")
    parser.add_argument("--tls-key", type=Path, help="PEM private key of --tls-cert")
    parser.add_argument(
        "--token",
        default=os.environ.get(TOKEN_ENV),
        help=f"require this bearer token on every call (default: ${TOKEN_ENV})",
    )
    args = parser.parse_args(argv)
    if (args.tls_cert is None) != (args.tls_key is None):
        parser.error("--tls-cert and --tls-key go together")
    tls = ServerTls(args.tls_cert.read_bytes(), args.tls_key.read_bytes()) if args.tls_cert else None
    address = args.address
    if address is None and args.port is None:
        address = os.environ.get(ADDRESS_ENV) or None
    port = int(os.environ.get(PORT_ENV, "0")) if args.port is None else args.port
    running = serve(bot, port, args.host, tls=tls, token=args.token, address=address)
    print(f"{bot.name} {bot.version} serving on {running.address}", file=sys.stderr, flush=True)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    stop.wait()
    running.stop()
