"""The derived codec on a message made for the test: every kind of field the convention covers
(enums, optional, repeated, nested, oneofs, tuples, masks, 64-bit numbers) survives encoding,
the bytes and decoding unchanged, and a malformed message is refused naming the field at fault."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from hypothesis import given
from hypothesis import strategies as st

from sdk.games.codec import Bound, MessageCodec, Spread, message_class

F = descriptor_pb2.FieldDescriptorProto
INT64, UINT64, SINT32 = F.TYPE_INT64, F.TYPE_UINT64, F.TYPE_SINT32
UINT32, ENUM, MESSAGE, STRING, BOOL = F.TYPE_UINT32, F.TYPE_ENUM, F.TYPE_MESSAGE, F.TYPE_STRING, F.TYPE_BOOL
REPEATED = F.LABEL_REPEATED


def _field(name: str, number: int, kind: F.Type.ValueType, *, repeated: bool = False, of: str = "") -> F:
    field = F(name=name, number=number, type=kind, label=REPEATED if repeated else F.LABEL_OPTIONAL)
    if of:
        field.type_name = f".codectest.{of}"
    return field


def _message(name: str, *fields: F, oneof: str = "") -> descriptor_pb2.DescriptorProto:
    message = descriptor_pb2.DescriptorProto(name=name, field=fields)
    if oneof:
        message.oneof_decl.add(name=oneof)
        for field in message.field:
            field.oneof_index = 0
    return message


def _optional(message: descriptor_pb2.DescriptorProto, *names: str) -> descriptor_pb2.DescriptorProto:
    """proto3 ``optional``: each field in a synthetic oneof of its own."""
    for field in message.field:
        if field.name in names:
            field.proto3_optional = True
            field.oneof_index = len(message.oneof_decl)
            message.oneof_decl.add(name=f"_{field.name}")
    return message


def _messages() -> dict[str, Any]:
    file = descriptor_pb2.FileDescriptorProto(name="codectest.proto", package="codectest", syntax="proto3")
    for name, values in (("Colour", ("RED", "GREEN", "BLUE")), ("Shade", ("LIGHT", "DARK"))):
        enum = file.enum_type.add(name=name)
        enum.value.add(name=f"{name.upper()}_UNSPECIFIED", number=0)
        for number, value in enumerate(values, 1):
            enum.value.add(name=f"{name.upper()}_{value}", number=number)
    file.message_type.extend(
        [
            _message("Point", _field("x", 1, SINT32), _field("y", 2, SINT32)),
            _message("Counts", _field("count", 1, UINT32, repeated=True)),
            _optional(
                _message(
                    "Leaf",
                    _field("mask", 1, UINT64),
                    _field("colour", 2, ENUM, of="Colour"),
                    _field("target", 3, UINT32),
                    _field("colours", 4, ENUM, repeated=True, of="Colour"),
                    _field("label", 5, STRING),
                    _field("flag", 6, BOOL),
                ),
                "target",
            ),
            _message("Start", _field("at", 1, UINT32)),
            _message("Stop"),
            _message(
                "Move",
                _field("start", 1, MESSAGE, of="Start"),
                _field("stop", 2, MESSAGE, of="Stop"),
                oneof="move",
            ),
            _optional(
                _message(
                    "Whole",
                    _field("big", 1, INT64),
                    _field("colour", 2, ENUM, of="Colour"),
                    _field("maybe", 3, SINT32),
                    _field("seat", 4, UINT32),
                    _field("leaves", 5, MESSAGE, repeated=True, of="Leaf"),
                    _field("leaf", 6, MESSAGE, of="Leaf"),
                    _field("points", 7, MESSAGE, repeated=True, of="Point"),
                    _field("corner", 8, MESSAGE, of="Point"),
                    _field("rows", 9, MESSAGE, repeated=True, of="Counts"),
                    _field("bits", 10, UINT32, repeated=True),
                    _field("moves", 11, MESSAGE, repeated=True, of="Move"),
                    _field("shade", 12, ENUM, of="Shade"),
                    _field("size", 13, ENUM, of="Shade"),
                    _field("values", 14, INT64, repeated=True),
                    _field("low", 15, UINT64),
                    _field("high", 16, UINT64),
                    _field("city", 17, UINT32),
                ),
                "maybe",
                "seat",
            ),
        ]
    )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {
        m.name: message_class(pool.FindMessageTypeByName(f"codectest.{m.name}")) for m in file.message_type
    }


PB = _messages()


class Colour(IntEnum):
    RED = 0
    GREEN = 1
    BLUE = 2


@dataclass(frozen=True)
class Leaf:
    mask: int
    colour: Colour
    target: int | None
    colours: tuple[Colour, ...]
    label: str
    flag: bool


@dataclass(frozen=True)
class Start:
    at: int


@dataclass(frozen=True)
class Stop:
    pass


@dataclass(frozen=True)
class Whole:
    big: int
    colour: Colour | None
    maybe: int | None
    seat: int
    leaves: tuple[Leaf, ...]
    leaf: Leaf | None
    points: tuple[tuple[int, int], ...]
    corner: tuple[int, int]
    rows: tuple[tuple[int, ...], ...]
    bits: int
    moves: tuple[Start | Stop, ...]
    shade: Literal["light", "dark"]
    size: str
    values: list[int]
    range: tuple[int, int]
    city: int


CODEC = MessageCodec(
    PB["Whole"],
    Whole,
    absent={"seat": -1},
    enums={"size": ("small", "large")},
    bounds={"city": Bound(54, "city")},
    fields=[Spread(PB["Whole"], Whole, "range", ("low", "high"))],
)

U32, U64 = st.integers(0, 2**32 - 1), st.integers(0, 2**64 - 1)
S32 = st.integers(-(2**31), 2**31 - 1)
COLOURS = st.sampled_from(list(Colour))
LEAVES = st.builds(
    Leaf,
    mask=U64,
    colour=COLOURS,
    target=st.none() | U32,
    colours=st.lists(COLOURS, max_size=4).map(tuple),
    label=st.text(max_size=8),
    flag=st.booleans(),
)
WHOLES = st.builds(
    Whole,
    big=st.integers(-(2**63), 2**63 - 1),
    colour=st.none() | COLOURS,
    maybe=st.none() | S32,
    seat=st.just(-1) | U32,
    leaves=st.lists(LEAVES, max_size=3).map(tuple),
    leaf=st.none() | LEAVES,
    points=st.lists(st.tuples(S32, S32), max_size=3).map(tuple),
    corner=st.tuples(S32, S32),
    rows=st.lists(st.lists(U32, max_size=3).map(tuple), max_size=3).map(tuple),
    bits=st.integers(0, 2**40 - 1),
    moves=st.lists(st.builds(Start, at=U32) | st.just(Stop()), max_size=3).map(tuple),
    shade=st.sampled_from(["light", "dark"]),
    size=st.sampled_from(["small", "large"]),
    values=st.lists(st.integers(-(2**63), 2**63 - 1), max_size=3),
    range=st.tuples(U64, U64),
    city=st.integers(0, 53),
)


def _through_bytes(message: Any) -> Any:
    return type(message).FromString(message.SerializeToString())


@given(WHOLES)
def test_every_value_survives_the_wire_unchanged(value: Whole) -> None:
    decoded = CODEC.decode(_through_bytes(CODEC.encode(value)))
    assert decoded == value
    assert CODEC.encode(decoded).SerializeToString() == CODEC.encode(value).SerializeToString()


@given(WHOLES)
def test_absent_values_are_absent_fields_and_present_ones_present(value: Whole) -> None:
    message = CODEC.encode(value)
    assert message.HasField("maybe") == (value.maybe is not None)
    assert message.HasField("seat") == (value.seat != -1)
    assert message.HasField("leaf") == (value.leaf is not None)
    assert message.colour == (0 if value.colour is None else value.colour + 1)
    assert list(message.bits) == [bit for bit in range(40) if value.bits >> bit & 1]


@given(WHOLES, st.integers(0, 10))
def test_an_enum_number_the_engine_does_not_know_is_refused_naming_the_field(
    value: Whole, number: int
) -> None:
    message = CODEC.encode(value)
    message.leaves.add(colour=number)
    if 1 <= number <= len(Colour):
        assert CODEC.decode(message).leaves[-1].colour == Colour(number - 1)
    else:
        with pytest.raises(ValueError, match=r"`whole\.leaves\.colour`"):
            CODEC.decode(message, "whole")


@given(WHOLES, st.integers(54, 2**32 - 1))
def test_a_number_out_of_its_bounds_is_refused_naming_the_field(value: Whole, city: int) -> None:
    message = CODEC.encode(value)
    message.city = city
    with pytest.raises(ValueError, match=rf"`city`: city {city} does not exist \(0-53\)"):
        CODEC.decode(message)


def test_required_fields_and_fixed_lengths_are_checked() -> None:
    message = PB["Whole"](corner=PB["Point"]())
    message.leaves.add()  # colour 0: unset, and the engine's colour may not be None
    with pytest.raises(ValueError, match=r"field `leaves\.colour` is unset"):
        CODEC.decode(message)
    del message.leaves[:]
    message.moves.add()  # a move carrying neither member
    with pytest.raises(ValueError, match=r"oneof `moves\.move` carries no value: set one of `start`, `stop`"):
        CODEC.decode(message)


def test_the_derivation_refuses_a_mismatch_when_the_codec_is_made() -> None:
    with pytest.raises(TypeError, match="has no attribute 'mask'"):
        MessageCodec(PB["Leaf"], Start)
    with pytest.raises(TypeError, match="enum"):
        MessageCodec(PB["Whole"], Whole)  # `size` is a str: which engine values its numbers stand for?
    with pytest.raises(TypeError, match="can be unset"):
        MessageCodec(PB["Start"], Start, absent={"at": -1})  # a plain number is never absent on the wire
