"""A game's tensors and masks as the numpy arrays learners use, made the same way wherever they are made.

A game declares its tensors with the standard library only (:mod:`sdk.games.tensors`); the learning
environments (:mod:`sdk.env`) and a served policy (:mod:`sdk.policy_bot`) both turn them into numpy
arrays here, without a copy, so what a policy is trained on and what it is served are the same bytes
of the same types.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sdk.games.tensors import Mask, Vector

__all__ = ["MaskArray", "TensorArray", "mask_array", "tensor_array"]

TensorArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def tensor_array(tensor: Vector) -> TensorArray:
    """The float32 numbers of ``tensor`` as a numpy array sharing its memory."""
    return np.frombuffer(tensor, dtype=np.float32)


def mask_array(mask: Mask) -> MaskArray:
    """The 0s and 1s of ``mask`` as an int8 numpy array sharing its memory."""
    return np.frombuffer(mask, dtype=np.int8)
