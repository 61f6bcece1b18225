"""A policy that keeps every (tensor, mask) it is served, by seat, to compare with the environment's."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.tensor_arrays import MaskArray, TensorArray

SERVED: dict[int, list[tuple[bytes, bytes, int]]] = {}
"""What the policy was served, seat by seat in order: the tensor's and the mask's bytes, and its answer."""

_asking = threading.local()  # the seat whose decision the policy is serving (seats may be asked at once)

RecordingBot: type[Bot] | None = None
"""Made for the game under test by :func:`recording_bot_class` (the test sets it)."""


def record(tensor: TensorArray, mask: MaskArray) -> int:
    """Keep what was served; choose a legal action that depends on the tensor, so play varies."""
    legal = np.flatnonzero(mask)
    answer = int(legal[int(tensor.sum() * 1000) % legal.size])
    SERVED.setdefault(_asking.seat, []).append((tensor.tobytes(), mask.tobytes(), answer))
    return answer


def recording_bot_class(served: type[Bot]) -> type[Bot]:
    """``served`` with the asked seat noted for :func:`record`, its decisions otherwise its own."""

    class Recording(served):  # type: ignore[valid-type, misc]
        def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
            _asking.seat = context.seat
            return super().decide(kind, observation, context)

    return Recording
