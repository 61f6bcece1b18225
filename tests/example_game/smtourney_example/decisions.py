"""The blind auction's decision kinds, declared once (see :mod:`sdk.games.wire_table`)."""

from __future__ import annotations

from typing import Any

from sdk.games.codec import Bound, MessageCodec
from sdk.games.wire_table import decision_table

from .protocol import auction_pb2 as pb
from .state import HAND, Bid, Claim, Observation
from .wire import OBSERVATION


def _observation_of(kind: str, request: Any) -> Observation:
    """The seat comes from the context, a claimant's winning bid from its request."""
    observation: Observation = OBSERVATION.decode(
        request.observation,
        "observation",
        seat=request.context.seat,
        winning_bid=getattr(request, "winning_bid", 0),
    )
    return observation


DECISIONS = decision_table(
    "blind_auction",
    pb.DESCRIPTOR.services_by_name["Auction"],
    OBSERVATION,
    {
        "bid": MessageCodec(
            pb.BidReply, Bid, skip=("decision_id",), bounds={"card": Bound(max(HAND) + 1, "card", 1)}
        ),
        "claim": Claim,
    },
    {"bid": "which card of your hand to bid", "claim": "keep the prize, or take your bid card back"},
    extras={"claim": lambda observation: {"winning_bid": observation.winning_bid}},
    decode_request=_observation_of,
)
