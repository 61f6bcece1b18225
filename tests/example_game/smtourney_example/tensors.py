"""Blind auction for learning: the numbering of its actions and the tensor of a seat's observation.

The worked example of a game's ``tensors.py`` (docs/architecture.md, "Adding a game"). Actions,
7 in all: ``Bid(1)`` .. ``Bid(5)`` are 0-4, ``Claim(True)`` (keep the prize) 5, ``Claim(False)``
(take the bid back) 6. The tensor, 36 float32 numbers, seat blocks for 4 seats (zero beyond the
table's size):

========== ====== =====================================================
block      length value
========== ====== =====================================================
seat       4      one-hot of the observing seat
players    4      one-hot of the table's size (2, 3 or 4 at 1, 2, 3)
prize      1      the prize up for bidding / 20
left       1      face-down prizes left / 20
round      1      the round / 20
hand       5      1 for each bid card 1-5 in the seat's hand
hand_sizes 4      each seat's hand size / 5
scores     4      each seat's points / 210 (the most 20 prizes give)
bid        4      1 for each seat whose sealed bid is in this round
last_bids  4      each seat's bid last round / 5
winning    1      the seat's winning bid / 5 when it is claiming, else 0
========== ====== =====================================================
"""

from __future__ import annotations

from sdk.games.tensors import ActionSpace, Features, TensorSpec, Writer

from .state import HAND, MAX_PLAYERS, Bid, Claim, Observation, Step

MOST_PRIZES = 20
MOST_POINTS = MOST_PRIZES * (MOST_PRIZES + 1) // 2

ACTIONS: ActionSpace[Step] = ActionSpace([*(Bid(card) for card in HAND), Claim(True), Claim(False)])
FEATURES = Features(
    (
        ("seat", MAX_PLAYERS),
        ("players", MAX_PLAYERS),
        ("prize", 1),
        ("left", 1),
        ("round", 1),
        ("hand", len(HAND)),
        ("hand_sizes", MAX_PLAYERS),
        ("scores", MAX_PLAYERS),
        ("bid", MAX_PLAYERS),
        ("last_bids", MAX_PLAYERS),
        ("winning", 1),
    )
)


def encode(observation: Observation, tensor: Writer) -> None:
    """Seat blocks are written for the table's seats only; the rest stay zero."""
    tensor.one_hot("seat", observation.seat)
    tensor.one_hot("players", observation.players - 1)
    tensor.put("prize", [observation.prize / MOST_PRIZES])
    tensor.put("left", [observation.prizes_left / MOST_PRIZES])
    tensor.put("round", [observation.round / MOST_PRIZES])
    tensor.put("hand", [float(card in observation.hand) for card in HAND])
    tensor.put("hand_sizes", [size / len(HAND) for size in observation.hand_sizes])
    tensor.put("scores", [points / MOST_POINTS for points in observation.scores])
    tensor.put("bid", [float(seat in observation.bid_this_round) for seat in range(observation.players)])
    tensor.put("last_bids", [bid / len(HAND) for bid in observation.last_bids])
    tensor.put("winning", [observation.winning_bid / len(HAND)])


def legal(observation: Observation) -> list[Step]:
    """A claim when the seat won the round, else a bid of any card in its hand."""
    if observation.winning_bid:
        return [Claim(True), Claim(False)]
    return [Bid(card) for card in observation.hand]


TENSORS = TensorSpec(ACTIONS, FEATURES, encode, legal)
