"""One game played step by step for an environment: chance taken, decisions asked as the referee asks them.

Both environments sit on a :class:`Table`. Chance outcomes are drawn from the environment's own
seeded stream as soon as the game reaches them. Seats deciding at once (``deciding_seats``) each
see the observation of the state they were all asked in, as the referee's requests do, so a seat
stepped after another never learns that one's pending choice.

Tensors and masks come from the game's declaration (:mod:`sdk.games.tensors`) as numpy arrays
over its float32 numbers and mask bytes. A deciding seat's mask is made from the legal actions
the engine lists for it (what the referee would send it), which the conformance suite checks
equal the ones the declaration derives from the seat's observation; a seat asked together with
others gets the mask of the observation it was asked with.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from sdk.games.errors import IllegalActionError
from sdk.games.play import apply_unchecked
from sdk.games.plugin import GamePlugin
from sdk.games.registry import get_game
from sdk.games.tensors import Tensors, action_mask, mask_of, tensors_of
from sdk.tensor_arrays import MaskArray, TensorArray, mask_array, tensor_array


def plugin_of(game: str | GamePlugin) -> GamePlugin:
    """The plugin ``game`` is or names (KeyError listing the installed games)."""
    return get_game(game) if isinstance(game, str) else game


class Table:
    """A game in progress for ``players`` seats; :meth:`reset` starts one."""

    def __init__(self, game: str | GamePlugin, players: int, params: Mapping[str, Any] | None) -> None:
        self.plugin = plugin_of(game)
        if not self.plugin.min_players <= players <= self.plugin.max_players:
            least, most = self.plugin.min_players, self.plugin.max_players
            raise ValueError(f"{self.plugin.name} is for {least}-{most} players, not {players}")
        self.players = players
        self.params = self.plugin.normalize_params(params or {})
        self.tensors: Tensors = tensors_of(self.plugin, players, self.params)
        self.state: Any = None
        self.chance = random.Random()
        self.asked: dict[int, Any] = {}  # observations of seats asked together, not yet answered
        self.chosen: tuple[Any, ...] = ()  # the deciding seat's parts so far of a decision taken in parts
        self._seen: dict[int, Any] = {}  # observations of the state as it is now, made once a step

    def reset(self, chance: random.Random) -> None:
        """A new game whose chance outcomes come from ``chance``."""
        self.chance = chance
        self.state = self.plugin.new_state(self.players, self.params)
        self.asked = {}
        self.chosen = ()
        self._advance()

    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal())

    @property
    def seat(self) -> int:
        """The seat deciding now (the game is not over)."""
        return int(self.state.current_player)

    def observation(self, seat: int) -> Any:
        """What ``seat`` may know now: as it was asked, if it is asked together with others."""
        if seat in self.asked:
            return self.asked[seat]
        seen = self._seen.get(seat)
        if seen is None:
            seen = self._seen[seat] = self.plugin.observe(self.state, seat)
        return seen

    def tensor(self, seat: int) -> TensorArray:
        chosen = self.chosen if not self.over and seat == self.seat else ()
        return tensor_array(self.tensors.encode(self.observation(seat), chosen))

    def mask(self, seat: int) -> MaskArray:
        """The deciding seat's legal actions (or next parts); all zeros for any other seat."""
        if self.over or seat != self.seat:
            return np.zeros(self.tensors.actions.size, dtype=np.int8)
        if seat in self.asked or self._in_parts():
            return mask_array(action_mask(self.tensors, self.observation(seat), self.chosen))
        return mask_array(mask_of(self.tensors.actions, self.state.legal_actions()))

    def apply(self, index: int) -> None:
        """The deciding seat takes action number ``index``, or the next part of a decision taken in
        parts (played once the parts make the whole action); IllegalActionError if it may not."""
        action = self.tensors.actions.action(index)
        if not self._in_parts():
            self.apply_action(action)
            return
        if action not in self.tensors.options(self.observation(self.seat), self.chosen):
            raise IllegalActionError("parts", f"{action!r} may not follow the parts {self.chosen!r}")
        whole = self.tensors.whole((*self.chosen, action))
        if whole is None:
            self.chosen = (*self.chosen, action)
            return
        self.apply_action(whole)

    def apply_action(self, action: Any) -> None:
        """The deciding seat takes ``action``; the engine's IllegalActionError if it may not."""
        seat = self.seat
        self.state.apply(action)
        self.asked.pop(seat, None)
        self.chosen = ()
        self._advance()

    def _in_parts(self) -> bool:
        """Whether the deciding seat's decision is taken in parts (never without declared parts)."""
        return self.tensors.parts is not None and self.tensors.in_parts(self.observation(self.seat))

    def rewards(self) -> list[float]:
        """At the end, by rank: 1 for first, -1 for last, evenly between (ties share); else zeros."""
        if not self.over:
            return [0.0] * self.players
        spread = max(1, self.players - 1)
        return [1.0 - 2.0 * (rank - 1) / spread for rank in self.state.ranks()]

    def _advance(self) -> None:
        """Take chance steps up to the next decision; note who is asked together there."""
        self._seen = {}
        apply = apply_unchecked(self.state)
        while not self.state.is_terminal() and self.state.is_chance_node():
            apply(self.state.sample_chance(self.chance))
        if self.state.is_terminal() or self.seat in self.asked:
            return
        seats = self.plugin.deciding_seats(self.state)
        if len(seats) > 1:
            self.asked = {seat: self.plugin.observe(self.state, seat) for seat in seats}
