"""A Saint Malo bot that misbehaves on purpose, to test the referee's fault policy.

    python -m tests.bots.faulty_bot --fault sleep --at 2 --tag UNIQUE

It plays the safe default until its ``--at``-th Keep request, then (and on every
later Keep request) does what ``--fault`` says. With ``--match N`` it counts Keep
requests only from the N-th match its process plays (a process kept between matches).
``--tag`` only marks the command line so a test can find leftover processes.
"""

from __future__ import annotations

import argparse
import functools
import os
import threading
import time
from concurrent import futures
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from sdk.bot import MatchInfo
from sdk.games.context_wire import context_from_message
from sdk.games.decisions import DecisionSpec
from sdk.games.saint_malo.bot import DefaultBot
from sdk.games.saint_malo.decisions import DECISIONS
from sdk.games.saint_malo.protocol import saint_malo_pb2 as pb
from sdk.protocol.v1 import bot_pb2, bot_pb2_grpc
from sdk.serve import LifecycleServicer

FAULTS = (
    "garbage",
    "wrong_kind",
    "none",
    "sleep",
    "crash",
    "illegal",
    "empty",
    "wrong_type",
    "huge",
    "stale",
    "exit_after_hello",
    "unhealthy",
    "no_health",
)


class FaultyBot(DefaultBot):
    """Plays the safe default: the faults are injected on the wire by FaultyService."""

    name = "faulty"
    version = "1"

    def __init__(self) -> None:
        self.matches = 0

    def start_match(self, match: MatchInfo) -> None:
        self.matches += 1


class FaultyService:
    """Answers correctly until decision ``at``, then injects the fault (into Keep, or Place)."""

    def __init__(self, bot: FaultyBot, fault: str, at: int, match: int) -> None:
        self.bot, self.fault, self.at, self.match, self.calls = bot, fault, at, match, 0
        self.lock = threading.Lock()

    def _misbehave(self) -> bool:
        with self.lock:
            if self.bot.matches < self.match:
                return False
            self.calls += 1
            return self.calls >= self.at

    def answer(self, spec: DecisionSpec, request: Any) -> Any:
        """The bot's own reply, as the SDK would send it."""
        context = context_from_message(request.context, "saint_malo")
        action = self.bot.decide(spec.kind, spec.decode_request(request), context)
        return spec.encode_reply(action, context.decision_id)

    def handle(self, spec: DecisionSpec, request: Any, context: grpc.ServicerContext) -> Any:
        if spec.kind == "keep":
            return self.keep(spec, request)
        if spec.kind == "place":
            return self.place(spec, request)
        return self.answer(spec, request)

    def keep(self, spec: DecisionSpec, request: pb.KeepRequest) -> Any:
        if not self._misbehave():
            return self.answer(spec, request)
        decision_id = request.context.decision_id
        fault = self.fault
        if fault == "sleep":
            time.sleep(30)
        elif fault == "crash":
            os._exit(3)
        elif fault == "illegal":
            return pb.KeepReply(decision_id=decision_id, reroll=99)
        elif fault == "empty":
            return pb.KeepReply()
        elif fault == "garbage":
            return b"\x0a\xff\xff"  # not a protobuf message: the referee cannot decode it
        elif fault == "huge":
            reply = pb.KeepReply(decision_id=decision_id)
            size = 100 * 1024 * 1024
            # An unknown length-delimited field 15 of 100 MB rides along with the reply.
            reply.MergeFromString(b"\x7a" + _varint(size) + b"x" * size)
            return reply
        elif fault == "stale":
            return pb.KeepReply(decision_id=decision_id - 1)
        return self.answer(spec, request)

    def place(self, spec: DecisionSpec, request: pb.PlaceRequest) -> Any:
        if self.fault != "wrong_kind" or self.calls < self.at:
            return self.answer(spec, request)
        # A well-formed placement of the wrong kind for the chosen symbol.
        decision_id = request.context.decision_id
        if request.observation.chosen == pb.SYMBOL_LOG:
            return pb.PlaceReply(decision_id=decision_id, church=pb.Church(space=24, size=1))
        return pb.PlaceReply(decision_id=decision_id, logs=pb.Logs(count=1))


def _raw_or_message(reply: Any) -> bytes:
    """Serialize a reply, letting raw bytes through unchanged (for the garbage fault)."""
    return reply if isinstance(reply, bytes) else bytes(reply.SerializeToString())


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


class ExitAfterHello(LifecycleServicer):
    """Answers Hello, then the process exits."""

    def Hello(self, request: bot_pb2.HelloRequest, context: grpc.ServicerContext) -> bot_pb2.HelloReply:
        threading.Timer(0.05, os._exit, args=(4,)).start()
        return super().Hello(request, context)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fault", choices=FAULTS, default="none")
    parser.add_argument("--at", type=int, default=1, help="misbehave from this decision request on")
    parser.add_argument("--match", type=int, default=1, help="count from this match of the process on")
    parser.add_argument("--tag", default="")
    args = parser.parse_args()
    bot = FaultyBot()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    lifecycle = ExitAfterHello(bot) if args.fault == "exit_after_hello" else LifecycleServicer(bot)
    bot_pb2_grpc.add_BotServicer_to_server(lifecycle, server)
    service = FaultyService(bot, args.fault, args.at, args.match)
    handlers = {
        spec.rpc: grpc.unary_unary_rpc_method_handler(
            functools.partial(service.handle, spec),
            request_deserializer=spec.request_type.FromString,
            response_serializer=_raw_or_message,
        )
        for spec in DECISIONS
    }
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(DECISIONS.service_name, handlers)])
    health_servicer = health.HealthServicer()
    serving = args.fault != "unhealthy"
    status = health_pb2.HealthCheckResponse.SERVING if serving else health_pb2.HealthCheckResponse.NOT_SERVING
    health_servicer.set("", status)
    if args.fault != "no_health":
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    # The referee's address for this bot: a Unix socket in the sandbox, else a port on 127.0.0.1.
    address = os.environ.get("SMTOURNEY_ADDRESS") or f"127.0.0.1:{os.environ['SMTOURNEY_PORT']}"
    server.add_insecure_port(address)
    server.start()
    server.wait_for_termination()


if __name__ == "__main__":
    main()
