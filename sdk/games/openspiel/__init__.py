"""Any OpenSpiel game (``pyspiel``) as a game of the contract: ``openspiel:<game>``."""

from .actions import Action, Outcome
from .observation import Observation, Tensor
from .state import State

__all__ = ["Action", "Observation", "Outcome", "State", "Tensor"]
