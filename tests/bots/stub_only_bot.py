"""A Saint Malo bot written from the .proto files alone: no SDK, no engine.

It imports modules that protoc generated from the .proto files (on PYTHONPATH, under
their own package names ``smtourney.v1`` and ``smtourney.saint_malo.v1``) and
plays simple legal moves by reading the observation's bit masks.

    PYTHONPATH=<generated> python tests/bots/stub_only_bot.py
"""

from __future__ import annotations

import os
from concurrent import futures
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from smtourney.saint_malo.v1 import saint_malo_pb2 as pb
from smtourney.saint_malo.v1 import saint_malo_pb2_grpc as pb_grpc
from smtourney.v1 import bot_pb2, bot_pb2_grpc

CORNERS = (0, 6, 42, 48)
SPACES = ((1 << 49) - 1) & ~sum(1 << c for c in CORNERS)
INNER = sum(1 << (r * 7 + c) for r in range(1, 6) for c in range(1, 6))
OUTER = SPACES & ~INNER


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def empty_spaces(observation: Any) -> int:
    city = observation.cities[observation.current]
    filled: int = city.walls | city.crates | city.houses
    for mask in [*city.churches, *city.persons]:
        filled |= mask
    return SPACES & ~filled


class Lifecycle(bot_pb2_grpc.BotServicer):  # type: ignore[misc]
    def Hello(self, request: Any, context: Any) -> Any:
        return bot_pb2.HelloReply(name="stub-only", version="1", games=["saint_malo"], protocol_version=1)

    def StartMatch(self, request: Any, context: Any) -> Any:
        return bot_pb2.StartMatchReply()

    def EndMatch(self, request: Any, context: Any) -> Any:
        return bot_pb2.EndMatchReply()


class Player(pb_grpc.SaintMaloServicer):  # type: ignore[misc]
    def Keep(self, request: Any, context: Any) -> Any:
        swords = sum(1 << i for i, d in enumerate(request.observation.dice) if d == pb.SYMBOL_SWORDS)
        return pb.KeepReply(decision_id=request.context.decision_id, reroll=swords)

    def Choose(self, request: Any, context: Any) -> Any:
        return pb.ChooseReply(decision_id=request.context.decision_id, symbol=request.available[0])

    def Rotate(self, request: Any, context: Any) -> Any:
        dice = min(request.legal, key=lambda m: (bin(m).count("1"), m))
        return pb.RotateReply(decision_id=request.context.decision_id, dice=dice)

    def Place(self, request: Any, context: Any) -> Any:
        observation = request.observation
        empty = empty_spaces(observation)
        reply = pb.PlaceReply(decision_id=request.context.decision_id)
        chosen = observation.chosen
        if chosen == pb.SYMBOL_LOG:
            reply.logs.count = 1
        elif chosen == pb.SYMBOL_CRATE:
            reply.crates.spaces = empty & -empty
        elif chosen == pb.SYMBOL_WALL:
            reply.walls.spaces = (empty & OUTER) & -(empty & OUTER)
        elif chosen == pb.SYMBOL_CROSS:
            reply.church.space, reply.church.size = lowest(empty), 1
        else:
            reply.person.person, reply.person.space = pb.PERSON_CITIZEN, lowest(empty)
        return reply

    def PlaceBonusPerson(self, request: Any, context: Any) -> Any:
        person = pb.PersonPlacement(person=pb.PERSON_SOLDIER, space=lowest(empty_spaces(request.observation)))
        return pb.PlaceBonusPersonReply(decision_id=request.context.decision_id, person=person)


def main() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_BotServicer_to_server(Lifecycle(), server)
    pb_grpc.add_SaintMaloServicer_to_server(Player(), server)
    health_servicer = health.HealthServicer()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    # The referee's address for this bot: a Unix socket in the sandbox, else a port on 127.0.0.1.
    address = os.environ.get("SMTOURNEY_ADDRESS") or f"127.0.0.1:{os.environ['SMTOURNEY_PORT']}"
    server.add_insecure_port(address)
    server.start()
    server.wait_for_termination()


if __name__ == "__main__":
    main()
