"""A random bot that keeps every decision request exactly as it came over the wire.

    SMTOURNEY_RECORD_DIR=DIR python -m tests.bots.recording_bot

It serves every installed game like ``bots.random`` and appends each request's
raw bytes, with its game, kind, match, seat and decision id, to
``DIR/<pid>.jsonl``, so a test can audit what the referee really sent.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import threading
from collections.abc import Callable
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from bots.random import RandomBot
from sdk.games.context_wire import context_from_message
from sdk.games.decisions import DecisionSpec, DecisionTable
from sdk.games.registry import listed_games
from sdk.protocol.v1 import bot_pb2_grpc
from sdk.serve import LifecycleServicer

RECORD_DIR_ENV = "SMTOURNEY_RECORD_DIR"


class Recorder:
    """Appends one JSON line per request; one file per process, so no two writers share one."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / f"{os.getpid()}.jsonl"
        self.lock = threading.Lock()

    def write(self, table: DecisionTable, spec: DecisionSpec, raw: bytes) -> Any:
        request: Any = spec.request_type.FromString(raw)
        context = request.context
        line = {
            "game": table.game if table.game_of is None else table.game_of(request),
            "kind": spec.kind,
            "match_id": context.match_id,
            "seat": context.seat,
            "decision_id": context.decision_id,
            "bytes": base64.b64encode(raw).decode(),
        }
        with self.lock, self.path.open("a") as out:
            out.write(json.dumps(line) + "\n")
        return request


def recording_handler(table: DecisionTable, recorder: Recorder) -> grpc.GenericRpcHandler:
    """The game's service as the SDK serves it, with every request recorded before it is decoded."""
    bot = RandomBot()

    def method(spec: DecisionSpec) -> grpc.RpcMethodHandler[Any, Any]:
        def call(request: Any, context: grpc.ServicerContext) -> Any:
            game = table.game if table.game_of is None else table.game_of(request)
            decision = context_from_message(request.context, game)
            action = bot.decide(spec.kind, spec.decode_request(request), decision)
            return spec.encode_reply(action, decision.decision_id)

        deserialize: Callable[[bytes], Any] = lambda raw: recorder.write(table, spec, raw)  # noqa: E731
        return grpc.unary_unary_rpc_method_handler(
            call, request_deserializer=deserialize, response_serializer=spec.reply_type.SerializeToString
        )

    handlers = {spec.rpc: method(spec) for spec in table}
    return grpc.method_handlers_generic_handler(table.service_name, handlers)


class RecordingBot(RandomBot):
    """Identifies itself as a recording random bot; decisions are served by :func:`recording_handler`."""

    name = "recording-random"


def main() -> None:
    recorder = Recorder(Path(os.environ[RECORD_DIR_ENV]))
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_BotServicer_to_server(LifecycleServicer(RecordingBot()), server)
    tables = {p.decisions.service_name: p.decisions for p in reversed(listed_games().values())}
    server.add_generic_rpc_handlers([recording_handler(table, recorder) for table in tables.values()])
    health_servicer = health.HealthServicer()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    # The referee's address for this bot: a Unix socket in the sandbox, else a port on 127.0.0.1.
    address = os.environ.get("SMTOURNEY_ADDRESS") or f"127.0.0.1:{os.environ['SMTOURNEY_PORT']}"
    server.add_insecure_port(address)
    server.start()
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    stop.wait()
    server.stop(1).wait()


if __name__ == "__main__":
    main()
