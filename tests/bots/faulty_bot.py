"""A Saint Malo bot that misbehaves on purpose, to test the referee's fault policy.

    python -m tests.bots.faulty_bot --fault sleep --at 2 --tag UNIQUE

It plays the safe default until its ``--at``-th Keep request, then (and on every
later Keep request) does what ``--fault`` says.
``--tag`` only marks the command line so a test can find leftover processes.
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from concurrent import futures
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from sdk.games.saint_malo.bot import DefaultBot, SaintMaloBot, SaintMaloServicer
from sdk.protocol.saint_malo.v1 import saint_malo_pb2 as pb
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
)


class FaultyBot(DefaultBot):
    """Plays the safe default: the faults are injected on the wire by FaultyServicer."""

    name = "faulty"
    version = "1"


class FaultyServicer(SaintMaloServicer):
    """Answers correctly until decision ``at``, then injects the fault."""

    def __init__(self, bot: SaintMaloBot, fault: str, at: int) -> None:
        super().__init__(bot)
        self.fault, self.at, self.calls = fault, at, 0
        self.lock = threading.Lock()

    def _misbehave(self) -> bool:
        with self.lock:
            self.calls += 1
            return self.calls >= self.at

    def Keep(self, request: pb.KeepRequest, context: grpc.ServicerContext) -> Any:
        if not self._misbehave():
            return super().Keep(request, context)
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
        return super().Keep(request, context)

    def Place(self, request: pb.PlaceRequest, context: grpc.ServicerContext) -> Any:
        if self.fault != "wrong_kind" or self.calls < self.at:
            return super().Place(request, context)
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
    parser.add_argument("--tag", default="")
    args = parser.parse_args()
    bot = FaultyBot()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    lifecycle = ExitAfterHello(bot) if args.fault == "exit_after_hello" else LifecycleServicer(bot)
    bot_pb2_grpc.add_BotServicer_to_server(lifecycle, server)
    servicer = FaultyServicer(bot, args.fault, args.at)
    handlers = {
        method: grpc.unary_unary_rpc_method_handler(
            getattr(servicer, method),
            request_deserializer=request_type.FromString,
            response_serializer=_raw_or_message,
        )
        for method, request_type in (
            ("Keep", pb.KeepRequest),
            ("Choose", pb.ChooseRequest),
            ("Rotate", pb.RotateRequest),
            ("Place", pb.PlaceRequest),
            ("PlaceBonusPerson", pb.PlaceBonusPersonRequest),
        )
    }
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler("smtourney.saint_malo.v1.SaintMalo", handlers)]
    )
    health_servicer = health.HealthServicer()
    serving = args.fault != "unhealthy"
    status = health_pb2.HealthCheckResponse.SERVING if serving else health_pb2.HealthCheckResponse.NOT_SERVING
    health_servicer.set("", status)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    server.add_insecure_port(f"127.0.0.1:{os.environ['SMTOURNEY_PORT']}")
    server.start()
    server.wait_for_termination()


if __name__ == "__main__":
    main()
