"""The codec between the engine's observation and its protobuf message (see :mod:`sdk.games.codec`)."""

from __future__ import annotations

from sdk.games.codec import MessageCodec

from .protocol import auction_pb2 as pb
from .state import Observation

OBSERVATION = MessageCodec(pb.Observation, Observation)
