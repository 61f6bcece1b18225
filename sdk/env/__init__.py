"""Every game that declares tensors as a learning environment: PettingZoo (all seats) or Gymnasium (one seat).

:func:`aec_env` and :func:`gym_env`; the tensors and masks are the game's own declaration
(:mod:`sdk.games.tensors`). PettingZoo and Gymnasium are the optional ``rl`` extra.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError:  # pragma: no cover - the extra is part of dev
    raise ImportError("sdk.env needs PettingZoo and Gymnasium: pip install -e '.[rl]'") from None

from .aec import GameAECEnv, aec_env
from .gym import GameGymEnv, gym_env

__all__ = ["GameAECEnv", "GameGymEnv", "aec_env", "gym_env"]
