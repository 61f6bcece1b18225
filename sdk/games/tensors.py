"""A game's numbers for learning: one numbering of its actions and one tensor of a seat's observation.

Learning libraries want a fixed ``Discrete(n)`` action space, a mask of the legal actions, and a
fixed-shape float32 array; a game declares them once, in its own ``tensors.py``, as a
:class:`Tensors` value that its plugin names (``tensors = TENSORS``). Both the environment
(:mod:`sdk.env`) and a bot serving a trained policy compute them from the same observation the
referee builds a seat's requests from, never from the state, so what a policy is trained on is
what it is later served.

A game writes little: :class:`ActionSpace` numbers a list of every action the game can ever take
(enumerated once, in a fixed order), and :class:`Features` lays out the tensor as named blocks
written by name from the observation (a :class:`Writer`). The game then only lists its actions,
says which are legal from an observation, and fills its blocks; :class:`TensorSpec` puts the
three together.

This module stays within the standard library, as the engines do (bots import them as forward
models): a tensor is an ``array('f')`` of float32 and a mask a ``bytearray`` of 0s and 1s, which
:mod:`sdk.env` hands to numpy without a copy (``np.frombuffer``).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

__all__ = [
    "ActionSpace", "Features", "Mask", "Parts", "TensorSpec", "Tensors", "Vector", "Writer", "action_mask",
    "bits", "mask_of", "tensors_of",
]  # fmt: skip

A = TypeVar("A", bound=Hashable)
#: A seat's encoded observation: float32 numbers (``array`` type code ``f``).
Vector: TypeAlias = "array[float]"
#: 1 at the number of every legal action, else 0.
Mask = bytearray


class ActionSpace(Generic[A]):
    """A fixed numbering ``0 .. size-1`` of every action a game can ever take.

    Built from the full list of actions, in an order that never changes between versions of the
    game (a trained policy's outputs are these numbers)."""

    def __init__(self, actions: Iterable[A]) -> None:
        self._actions: tuple[A, ...] = tuple(actions)
        self._index: dict[A, int] = {action: number for number, action in enumerate(self._actions)}
        if len(self._index) != len(self._actions):
            raise ValueError("an action space lists every action once")

    @property
    def size(self) -> int:
        return len(self._actions)

    def index(self, action: A) -> int:
        """The number of ``action``; KeyError for an action outside the space."""
        return self._index[action]

    def indices(self, actions: Iterable[A]) -> list[int]:
        """The numbers of ``actions``, in order (a mask's positions: one lookup each, no call per action)."""
        return list(map(self._index.__getitem__, actions))

    def action(self, index: int) -> A:
        """The action numbered ``index``."""
        return self._actions[index]


@dataclass(frozen=True, slots=True)
class Features:
    """The tensor's layout: named blocks of given lengths, in order (documented on the bot page).

    An encoder fills a :meth:`writer` block by block, by name, instead of counting offsets."""

    blocks: tuple[tuple[str, int], ...]
    offsets: dict[str, tuple[int, int]] = field(init=False, repr=False, compare=False)
    size: int = field(init=False, repr=False, compare=False)
    zeros: Vector = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        offsets, start = {}, 0
        for name, length in self.blocks:
            offsets[name] = (start, start + length)
            start += length
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "size", start)
        object.__setattr__(self, "zeros", array("f", bytes(4 * start)))

    def writer(self) -> Writer:
        return Writer(self)


class Writer:
    """One tensor being filled: blocks written by name, then :meth:`array` (zeros where unwritten).

    The float32 array is filled in place from a copy of the layout's zeros (one memory copy), so a
    tensor costs what its encoder writes, not its size: a block given as an ``array('f')`` (an
    encoder may keep those for parts that rarely change) is copied as memory, anything else is
    converted number by number."""

    __slots__ = ("_offsets", "_values")

    def __init__(self, features: Features) -> None:
        self._offsets = features.offsets
        self._values = features.zeros[:]

    def put(self, name: str, values: Sequence[float]) -> None:
        """Block ``name`` (exactly its length; a shorter ``values`` leaves the rest zero)."""
        start, end = self._offsets[name]
        count = len(values)
        if count > end - start:
            raise ValueError(f"block {name!r} holds {end - start} numbers, not {count}")
        if not (isinstance(values, array) and values.typecode == "f"):
            values = array("f", values)
        self._values[start : start + count] = values

    def one_hot(self, name: str, hot: int) -> None:
        """Block ``name`` as a one-hot of ``hot`` (all zeros for a ``hot`` outside the block)."""
        start, end = self._offsets[name]
        if 0 <= hot < end - start:
            self._values[start + hot] = 1.0

    def array(self) -> Vector:
        return self._values


class Tensors(Protocol):
    """What a game declares for learning (its ``tensors.py``; the plugin's ``tensors``).

    - ``actions``: the :class:`ActionSpace` of every action the game can ever take, and of every
      part of a decision taken in :class:`Parts`;
    - ``shape``: the shape of every encoded observation (one dimension);
    - ``encode(observation, chosen)``: the float32 numbers of that shape, from the seat's
      observation alone and the parts it has chosen so far of a decision taken in parts;
    - ``legal(observation)``: the legal actions of the seat whose observation it is, when that seat
      is the one deciding (from the observation alone, as its bot would know them);
    - ``parts``, ``in_parts(observation)``, ``options(observation, chosen)``, ``whole(chosen)``: a
      decision too large to number whole (:class:`Parts`; None and the legal actions for the rest).
    """

    @property
    def actions(self) -> ActionSpace[Any]: ...
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def parts(self) -> Parts | None: ...
    def encode(self, observation: Any, chosen: tuple[Any, ...] = ()) -> Vector: ...
    def legal(self, observation: Any) -> Iterable[Any]: ...
    def in_parts(self, observation: Any) -> bool: ...
    def options(self, observation: Any, chosen: tuple[Any, ...] = ()) -> Iterable[Any]: ...
    def whole(self, chosen: tuple[Any, ...]) -> Any | None: ...


@dataclass(frozen=True, slots=True)
class Parts:
    """A decision whose options are too many to number whole, taken as numbered parts in turn.

    A learner (and a served policy) answers such a decision with one part at a time, each from a
    mask of the parts that may come next, until the parts make the whole action, which is then
    played. Every whole action the rules allow is made by exactly one sequence of parts, so the
    parts are as exact as a numbering of the whole actions would be, in far fewer numbers.

    - ``takes(observation)``: whether the deciding seat's decision is taken in parts;
    - ``options(observation, chosen)``: the parts that may come after ``chosen``;
    - ``whole(chosen)``: the action ``chosen`` makes, or None while it is not complete;
    - ``write(chosen, writer)``: the parts chosen so far, into the tensor (a learner sees them).
    """

    takes: Callable[[Any], bool]
    options: Callable[[Any, tuple[Any, ...]], Iterable[Any]]
    whole: Callable[[tuple[Any, ...]], Any | None]
    write: Callable[[tuple[Any, ...], Writer], None]


@dataclass(frozen=True, slots=True)
class TensorSpec(Generic[A]):
    """A :class:`Tensors` made of an action space, a feature layout, two functions and, for a
    game with a decision too large to number whole, its :class:`Parts`."""

    actions: ActionSpace[A]
    features: Features
    encoder: Callable[[Any, Writer], None]
    legal_actions: Callable[[Any], Iterable[A]]
    parts: Parts | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.features.size,)

    def encode(self, observation: Any, chosen: tuple[Any, ...] = ()) -> Vector:
        writer = self.features.writer()
        self.encoder(observation, writer)
        if chosen and self.parts is not None:
            self.parts.write(chosen, writer)
        return writer.array()

    def legal(self, observation: Any) -> Iterable[A]:
        return self.legal_actions(observation)

    def in_parts(self, observation: Any) -> bool:
        return self.parts is not None and self.parts.takes(observation)

    def options(self, observation: Any, chosen: tuple[Any, ...] = ()) -> Iterable[Any]:
        """The numbered choices now: the next parts of a decision taken in parts, else the legal actions."""
        if self.parts is not None and self.parts.takes(observation):
            return self.parts.options(observation, chosen)
        return self.legal_actions(observation)

    def whole(self, chosen: tuple[Any, ...]) -> Any | None:
        return None if self.parts is None else self.parts.whole(chosen)


def action_mask(tensors: Tensors, observation: Any, chosen: tuple[Any, ...] = ()) -> Mask:
    """1 at the number of every choice open to the deciding seat whose ``observation`` it is, after
    the parts ``chosen`` so far of a decision taken in parts."""
    return mask_of(tensors.actions, tensors.options(observation, chosen))


def mask_of(actions: ActionSpace[Any], legal: Iterable[Any]) -> Mask:
    """1 at the number of every action of ``legal``, 0 elsewhere."""
    mask = bytearray(actions.size)
    for number in actions.indices(legal):
        mask[number] = 1
    return mask


#: The eight bits of every byte as floats, lowest first: a bit mask is read a byte at a time.
_BYTE_BITS = [tuple(float(byte >> bit & 1) for bit in range(8)) for byte in range(256)]


def bits(mask: int, length: int) -> list[float]:
    """Bit ``i`` of ``mask`` as number ``i`` of ``length`` (the engines keep sets of squares, lines
    or cards as integer masks; a block reads one a byte at a time, not a bit at a time)."""
    values: list[float] = []
    for byte in mask.to_bytes((length + 7) // 8, "little"):
        values += _BYTE_BITS[byte]
    return values[:length]


def tensors_of(plugin: Any, players: int | None = None, params: Mapping[str, Any] | None = None) -> Tensors:
    """The plugin's :class:`Tensors` for a table of ``players`` (default: the most) with ``params``.

    A game whose numbers are the same at every table declares them as ``tensors``; one whose
    numbers depend on the table (an adapted collection's games, whose tensor shapes follow their
    parameters) declares ``tensors_for(players, params)`` instead. ValueError when there are none."""
    table = getattr(plugin, "tensors_for", None)
    if table is not None:
        tensors: Tensors | None = table(players or plugin.max_players, params or {})
    else:
        tensors = getattr(plugin, "tensors", None)
    if tensors is None:
        raise ValueError(f"{plugin.name} declares no tensors (a tensors.py in its folder; docs/learning.md)")
    return tensors
