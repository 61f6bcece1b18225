"""The learned Saint Malo policy, ``act(tensor, mask) -> action index``, as ``sdk.policy_bot`` serves it:

    python -m sdk.policy_bot bots.learned.policy:act --game saint_malo

It plays the legal action the trained network scores highest; the weights are ``saint_malo.npz``
beside this module (made by ``python -m bots.learned.train``), read once, at the first decision.
"""

from __future__ import annotations

import functools
from pathlib import Path

from sdk.policy_bot import policy_bot_class
from sdk.tensor_arrays import MaskArray, TensorArray

from .model import Network

WEIGHTS = Path(__file__).with_name("saint_malo.npz")


@functools.cache
def network() -> Network:
    return Network.load(WEIGHTS)


def act(tensor: TensorArray, mask: MaskArray) -> int:
    """The action number the trained network prefers among those ``mask`` allows."""
    return network().act(tensor, mask)


#: The policy as a bot class, for in-process play (``bots.learned.policy:LearnedBot``), as an opponent
#: to train the next policy against, or in ``smtourney duel``.
LearnedBot = policy_bot_class(act, "saint_malo", name="learned")
