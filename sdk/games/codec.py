"""Codecs derived from the messages: engine values to protobuf messages and back, by name and type.

One convention for every game, so a game's ``wire.py`` declares only where it differs:

- a message field carries the engine attribute of the same name (``rename`` maps others);
- scalars are copied; a ``repeated`` field is a tuple (a list where the engine hints a list),
  or, where the engine hints an ``int``, a bit mask whose set bits the wire lists;
- enums start at 1 on the wire (0 means none). The engine's values are, in order, the members
  of an ``Enum`` class, the choices of a ``Literal``, the numbers 0.. of an ``int``, or the
  sequence given in ``enums``;
- an unset ``optional`` field (or enum 0) is ``None`` where the engine's hint allows it, or the
  engine value given in ``absent`` (such as -1); otherwise the field is required;
- a nested message is a nested engine object, derived the same way; a tuple maps to a
  message's fields in order, or to the one field of a wrapper message;
- a ``oneof`` is a union of engine classes, one per member, matched by name.

Decoding never trusts its input: an error names the field by its path (``play.event``), as
the ``error`` type the caller asks for (``MalformedReplyError`` for a reply, ``ValueError``
for a request). Legality stays the engine's job.
"""

from __future__ import annotations

import itertools
import keyword
import linecache
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, Protocol, Union, cast, get_args, get_origin, get_type_hints

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

Error = type[ValueError]

__all__ = [
    "Bound",
    "Codecs",
    "Columns",
    "Error",
    "FieldCodec",
    "MessageCodec",
    "Spread",
    "TupleCodec",
    "UnionCodec",
    "ValueCodec",
    "classes_of",
    "join",
    "message_class",
]


def join(path: str, name: str) -> str:
    """The path of field ``name`` inside ``path`` (for error messages)."""
    return f"{path}.{name}" if path else name


def _read(obj: str, name: str) -> str:
    """Source reading attribute ``name`` of the object ``obj`` names."""
    if name.isidentifier() and not keyword.iskeyword(name):
        return f"{obj}.{name}"
    return f"getattr({obj}, {name!r})"


def _write(obj: str, name: str, value: str) -> str:
    """Source setting attribute ``name`` of the object ``obj`` names."""
    if name.isidentifier() and not keyword.iskeyword(name):
        return f"{obj}.{name} = {value}"
    return f"setattr({obj}, {name!r}, {value})"


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _branch(condition: str, then: list[str], otherwise: list[str]) -> list[str]:
    """Source of ``if condition: then else: otherwise``."""
    return [f"if {condition}:", *_indent(then), "else:", *_indent(otherwise)]


_COMPILED = itertools.count(1)


def _function(name: str, params: str, lines: list[str], env: dict[str, Any]) -> Callable[..., Any]:
    """One function made from generated source, its names bound from ``env``.

    Codecs compile each message's encoder and decoder once, so a request costs one call with the
    fields inlined rather than a call and attribute look-ups by name per field."""
    source = "\n".join([f"def {name}({params}):", *_indent(lines or ["pass"]), ""])
    filename = f"<codec {name} {next(_COMPILED)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)  # tracebacks
    namespace = dict(env)
    exec(compile(source, filename, "exec"), namespace)  # source made here, from descriptors
    function: Callable[..., Any] = namespace[name]
    return function


def message_class(descriptor: Any) -> type[Message]:
    cls: type[Message] = GetMessageClass(descriptor)
    return cls


@dataclass(frozen=True, slots=True)
class Bound:
    """A number the wire may carry only from ``low`` to below ``limit``; ``noun`` names it (a line)."""

    limit: int
    noun: str
    low: int = 0

    def check(self, value: int, path: str, error: Error) -> int:
        if not self.low <= value < self.limit:
            raise error(f"field `{path}`: {self.noun} {value} does not exist ({self.low}-{self.limit - 1})")
        return value


class ValueCodec(Protocol):
    """Encodes and decodes whole engine values to and from one message type."""

    message_type: type[Message]

    def fill(self, message: Any, value: Any) -> None: ...
    def decode(self, message: Any, path: str, error: Error) -> Any: ...


class FieldCodec(Protocol):
    """Moves part of an engine object to and from some fields of its message.

    ``wire`` names the fields it covers; ``put`` reads what it needs of the engine object;
    ``get`` adds the engine attributes it decodes to ``out``.
    """

    @property
    def wire(self) -> tuple[str, ...]: ...

    def put(self, message: Any, obj: Any) -> None: ...
    def get(self, message: Any, path: str, error: Error, out: dict[str, Any]) -> None: ...


# --- engine hints --------------------------------------------------------------------------------------


def _optional(hint: Any) -> tuple[Any, bool]:
    """``X | None`` as (X, True); anything else as (hint, False)."""
    if get_origin(hint) in (Union, types.UnionType):
        args = get_args(hint)
        rest = tuple(a for a in args if a is not type(None))
        if len(rest) < len(args):
            return (rest[0] if len(rest) == 1 else Union[rest]), True  # noqa: UP007
    return hint, False


def classes_of(hint: Any) -> tuple[type, ...]:
    """The classes of a union hint (or the one class)."""
    if get_origin(hint) in (Union, types.UnionType):
        return tuple(a for a in get_args(hint) if a is not type(None))
    return (hint,)


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


# --- one value ------------------------------------------------------------------------------------------


class _Element(Protocol):
    """One wire value to one engine value (writing is picked per field, see ``_Derived``)."""

    def from_wire(self, wire: Any, path: str, error: Error) -> Any: ...


class _Scalar:
    def __init__(self, bound: Bound | None) -> None:
        self.bound = bound

    def from_wire(self, wire: Any, path: str, error: Error) -> Any:
        return wire if self.bound is None else self.bound.check(wire, path, error)


class _Enum:
    """Engine values in wire order from 1; 0 is none (never a value)."""

    def __init__(self, fd: Any, values: Sequence[Any]) -> None:
        wire_count = len(fd.enum_type.values) - 1
        if len(values) != wire_count:
            raise TypeError(f"{fd.full_name}: {wire_count} wire values, {len(values)} engine values")
        self.name = fd.enum_type.name
        self.values = tuple(values)
        self.numbers = {value: number for number, value in enumerate(self.values, 1)}

    def from_wire(self, wire: int, path: str, error: Error) -> Any:
        if not 1 <= wire <= len(self.values):
            raise error(f"field `{path}` = {wire} is no {self.name} (1-{len(self.values)})")
        return self.values[wire - 1]


def _enum_values(fd: Any, hint: Any, given: Sequence[Any] | None) -> Sequence[Any]:
    if given is not None:
        return given
    if isinstance(hint, type) and issubclass(hint, Enum):
        return tuple(hint)
    if get_origin(hint) is Literal:
        return get_args(hint)
    if hint is int:
        return range(len(fd.enum_type.values) - 1)
    raise TypeError(f"{fd.full_name}: say which engine values its enum numbers stand for (`enums`)")


class _Nested:
    """A message-typed value, through its codec."""

    def __init__(self, codec: ValueCodec) -> None:
        self.codec = codec

    def from_wire(self, wire: Any, path: str, error: Error) -> Any:
        return self.codec.decode(wire, path, error)


Codecs = Mapping[type[Message], "ValueCodec"]


def value_codec(message_type: type[Message], hint: Any, codecs: Codecs | None = None) -> ValueCodec:
    """The codec between ``hint`` (a class, a union of classes, a tuple) and ``message_type``:
    the one ``codecs`` gives for that message type, else derived."""
    if codecs and message_type in codecs:
        return codecs[message_type]
    oneofs = [o for o in message_type.DESCRIPTOR.oneofs if not o.name.startswith("_")]
    if get_origin(hint) is tuple:
        return TupleCodec(message_type, hint)
    if len(classes_of(hint)) > 1 or (oneofs and len(oneofs[0].fields) == len(message_type.DESCRIPTOR.fields)):
        return UnionCodec(message_type, classes_of(hint), codecs=codecs)
    return MessageCodec(message_type, hint, codecs=codecs)


# --- one field ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Options:
    enums: Sequence[Any] | None = None
    absent: Any = None
    has_absent: bool = False
    bound: Bound | None = None
    length: tuple[int, int | None] | None = None
    codecs: Codecs | None = None


class _Derived:
    """One wire field to one engine attribute, by the convention above."""

    def __init__(self, fd: Any, attr: str, hint: Any, options: _Options) -> None:
        self.name, self.attr = fd.name, attr
        self.wire = (fd.name,)
        hint, self.optional = _optional(hint)
        self.absent, self.has_absent = options.absent, options.has_absent or self.optional
        self.repeated = fd.is_repeated
        self.as_list = get_origin(hint) is list
        self.length = options.length
        self.mask = self.repeated and hint is int
        if self.mask:
            hint = int
        elif self.repeated:
            args = get_args(hint)
            fixed = get_origin(hint) is tuple and args and args[-1] is not Ellipsis
            if fixed and self.length is None:
                self.length = (len(args), len(args))
            hint = args[0] if args else Any
        self.presence = fd.has_presence and not self.repeated
        self.is_message = fd.type == FieldDescriptor.TYPE_MESSAGE
        self.element: _Element
        if self.is_message:
            codec = value_codec(message_class(fd.message_type), hint, options.codecs)
            self.element = _Nested(codec)
        elif fd.type == FieldDescriptor.TYPE_ENUM:
            self.element = _Enum(fd, _enum_values(fd, hint, options.enums))
        else:
            self.element = _Scalar(options.bound)
        self.is_enum = fd.type == FieldDescriptor.TYPE_ENUM
        self.plain = isinstance(self.element, _Scalar) and options.bound is None
        if options.has_absent and not (self.presence or self.is_message or self.is_enum):
            raise TypeError(f"{fd.full_name}: only a field that can be unset stands for an absent value")

        self.put_value: Callable[[Any, Any], None] = self._putter()
        self.items_of: Callable[[Any, str, Error], list[Any]] = self._items_reader()

    def _putter(self) -> Callable[[Any, Any], None]:
        """The cheapest writer for this field (a request is encoded once per decision)."""
        name, element = self.name, self.element
        if self.mask:
            return lambda m, v: getattr(m, name).extend([b for b in range(v.bit_length()) if v >> b & 1])
        if self.repeated and isinstance(element, _Nested):
            fill_one = element.codec.fill

            def fill_each(message: Any, values: Any) -> None:
                add = getattr(message, name).add
                for item in values:
                    fill_one(add(), item)

            return fill_each
        if self.repeated and isinstance(element, _Enum):
            numbers = element.numbers
            return lambda m, v: getattr(m, name).extend([numbers[item] for item in v])
        if self.repeated:
            return lambda m, v: getattr(m, name).extend(v)
        if isinstance(element, _Nested):
            fill = element.codec.fill
            put: Callable[[Any, Any], None] = lambda m, v: fill(getattr(m, name), v)  # noqa: E731
        elif isinstance(element, _Enum):
            numbers = element.numbers
            put = lambda m, v: setattr(m, name, numbers[v])  # noqa: E731
        else:
            put = lambda m, v: setattr(m, name, v)  # noqa: E731
        if self.optional:
            return lambda m, v: None if v is None else put(m, v)
        if self.has_absent:
            absent = self.absent
            return lambda m, v: None if v == absent else put(m, v)
        return put

    def _items_reader(self) -> Callable[[Any, str, Error], list[Any]]:
        """How a repeated field's entries become engine values (checked where they may be wrong)."""
        element = self.element
        if isinstance(element, _Scalar) and element.bound is None:
            return lambda items, here, error: list(items)
        return lambda items, here, error: [element.from_wire(item, here, error) for item in items]

    def put_source(self, i: int, env: dict[str, Any]) -> list[str]:
        """Source writing this field of message ``m`` from engine object ``v``, as :meth:`put`
        does; the names it uses go into ``env`` (each prefixed ``f{i}_``)."""
        x, target, element = f"x{i}", _read("m", self.name), self.element
        lines = [f"{x} = {_read('v', self.attr)}"]
        if isinstance(element, _Nested):
            codec = element.codec
            env[f"f{i}_fill"] = codec.filler if isinstance(codec, MessageCodec) else codec.fill
        elif isinstance(element, _Enum):
            env[f"f{i}_numbers"] = element.numbers
        if self.mask:
            return [*lines, f"{target}.extend([b for b in range({x}.bit_length()) if {x} >> b & 1])"]
        if self.repeated and isinstance(element, _Nested):
            return [*lines, f"add = {target}.add", f"for item in {x}:", f"    f{i}_fill(add(), item)"]
        if self.repeated and isinstance(element, _Enum):
            return [*lines, f"{target}.extend([f{i}_numbers[item] for item in {x}])"]
        if self.repeated:
            return [*lines, f"{target}.extend({x})"]
        if isinstance(element, _Nested):
            body = f"f{i}_fill({target}, {x})"
        elif isinstance(element, _Enum):
            body = _write("m", self.name, f"f{i}_numbers[{x}]")
        else:
            body = _write("m", self.name, x)
        if self.optional:
            return [*lines, f"if {x} is not None:", f"    {body}"]
        if self.has_absent:
            env[f"f{i}_absent"] = self.absent
            return [*lines, f"if not {x} == f{i}_absent:", f"    {body}"]
        return [*lines, body]

    def get_source(self, i: int, env: dict[str, Any]) -> list[str]:
        """Source decoding this field of message ``m`` into ``out``, as :meth:`get` does.

        It decides only what is cheap to check; anything else (every error among it) is left to
        :meth:`get_value`, so a malformed message is refused in the same words."""
        env[f"f{i}"] = self
        out = f"out[{self.attr!r}]"
        reference = [f"{out} = f{i}.get_value(m, path, error)"]
        target = _read("m", self.name)
        if self.repeated:
            # A slice copies a repeated field's entries at once: iterating one ends in an IndexError
            # whose message is formatted, a third of the cost of a short field.
            items = self._items_source(i, env, out, reference)
            if self.length is None:
                return [f"items = {target}[:]", *items]
            low, high = self.length
            fits = f"{low} <= len(items)" + ("" if high is None else f" <= {high}")
            return [f"items = {target}[:]", *_branch(fits, items, reference)]
        absent = reference
        if self.has_absent:
            env[f"f{i}_absent"] = None if self.optional else self.absent
            absent = [f"{out} = f{i}_absent"]
        if isinstance(self.element, _Nested):
            decoded = self._nested_source(i, env, target, self._path_source())
            return _branch(f"m.HasField({self.name!r})", [f"{out} = {decoded}"], absent)
        checked = [f"{out} = x"]
        if isinstance(self.element, _Enum):
            env[f"f{i}_values"] = self.element.values
            count = len(self.element.values)
            checked = _branch(f"1 <= x <= {count}", [f"{out} = f{i}_values[x - 1]"], reference)
        elif not self.plain:
            checked = _branch(f"f{i}_bound.low <= x < f{i}_bound.limit", [f"{out} = x"], reference)
            env[f"f{i}_bound"] = cast(_Scalar, self.element).bound
        if self.presence:
            return _branch(f"m.HasField({self.name!r})", [f"x = {target}", *checked], absent)
        if self.is_enum:
            return [f"x = {target}", *_branch("x == 0", absent, checked)]
        return [f"x = {target}", *checked]

    def _path_source(self) -> str:
        """Source of the field's path inside ``path``, as :func:`join` makes it."""
        return f"(path + {'.' + self.name!r} if path else {self.name!r})"

    def _nested_source(self, i: int, env: dict[str, Any], wire: str, path: str) -> str:
        """Source decoding one nested message ``wire`` found at ``path``."""
        codec = cast(_Nested, self.element).codec
        if isinstance(codec, MessageCodec):
            env[f"f{i}_decode"], env["NOTHING_KNOWN"] = codec.decoder, {}
            return f"f{i}_decode({wire}, {path}, error, NOTHING_KNOWN)"
        env[f"f{i}_decode"] = codec.decode
        return f"f{i}_decode({wire}, {path}, error)"

    def _items_source(self, i: int, env: dict[str, Any], out: str, reference: list[str]) -> list[str]:
        """Source turning the repeated field's ``items`` into the engine's value, in ``out``."""

        def whole(values: str) -> str:
            if self.mask:
                return f"sum(1 << bit for bit in set({values}))"
            return f"list({values})" if self.as_list else f"tuple({values})"

        element = self.element
        if isinstance(element, _Nested):
            decoded = self._nested_source(i, env, "item", "here")
            return [f"here = {self._path_source()}", f"{out} = {whole(f'[{decoded} for item in items]')}"]
        if isinstance(element, _Enum):
            env[f"f{i}_by_wire"] = dict(enumerate(element.values, 1))
            converted = whole(f"[f{i}_by_wire[item] for item in items]")
            return ["try:", f"    {out} = {converted}", "except KeyError:", *_indent(reference)]
        if not self.plain:
            env[f"f{i}_bound"] = cast(_Scalar, element).bound
            fits = f"all(f{i}_bound.low <= item < f{i}_bound.limit for item in items)"
            return _branch(fits, [f"{out} = {whole('items')}"], reference)
        return [f"{out} = {whole('items')}"]

    def put(self, message: Any, obj: Any) -> None:
        self.put_value(message, getattr(obj, self.attr))

    def get(self, message: Any, path: str, error: Error, out: dict[str, Any]) -> None:
        out[self.attr] = self.get_value(message, path, error)

    def get_value(self, message: Any, path: str, error: Error) -> Any:
        if self.repeated:
            items = getattr(message, self.name)
            low, high = self.length or (0, None)
            if len(items) < low or (high is not None and len(items) > high):
                count = f"{low}" if low == high else f"at least {low}" if high is None else f"{low} to {high}"
                raise error(f"field `{join(path, self.name)}` needs {count} entries, not {len(items)}")
            values = self.items_of(items, join(path, self.name), error)
            if self.mask:
                return sum(1 << bit for bit in set(values))
            return values if self.as_list else tuple(values)
        value = getattr(message, self.name)
        if self.presence or self.is_message:
            present = message.HasField(self.name)
        else:
            present = not self.is_enum or value != 0
        if not present:
            if not self.has_absent:
                raise error(f"field `{join(path, self.name)}` is unset")
            return None if self.optional else self.absent
        if self.plain:
            return value
        return self.element.from_wire(value, join(path, self.name), error)


# --- whole messages -------------------------------------------------------------------------------------


class MessageCodec:
    """An engine class (a dataclass, a NamedTuple, a class with annotations) and a message, by field.

    Overrides, each by wire field name: ``rename`` (the engine attribute's name), ``enums``
    (engine values of an enum field, in wire order), ``absent`` (the engine value an unset
    field stands for), ``bounds``, ``lengths`` (entries a repeated field may hold); ``codecs``
    gives the codec of a message type wherever it occurs, at any depth. ``fields`` are
    hand-written :class:`FieldCodec`\\ s for the fields that differ; ``skip`` lists wire fields
    the engine object does not hold. ``build`` makes the engine object from its decoded
    attributes (default: the class, by keyword); ``hints`` replaces the engine class's hints.
    """

    def __init__(
        self,
        message_type: type[Message],
        engine_type: Any,
        *,
        rename: Mapping[str, str] | None = None,
        enums: Mapping[str, Sequence[Any]] | None = None,
        absent: Mapping[str, Any] | None = None,
        bounds: Mapping[str, Bound] | None = None,
        lengths: Mapping[str, tuple[int, int | None]] | None = None,
        codecs: Codecs | None = None,
        fields: Iterable[FieldCodec] = (),
        skip: Iterable[str] = (),
        build: Callable[..., Any] | None = None,
        hints: Mapping[str, Any] | None = None,
    ) -> None:
        self.message_type = message_type
        self.build: Callable[..., Any] = build or engine_type
        hints = get_type_hints(engine_type) if hints is None else hints
        custom = list(fields)
        covered = {name for codec in custom for name in codec.wire} | set(skip)
        self.fields: list[FieldCodec] = list(custom)  # first: they may check what the rest relies on
        for fd in message_type.DESCRIPTOR.fields:
            if fd.name in covered:
                continue
            attr = (rename or {}).get(fd.name, fd.name)
            if attr not in hints:
                raise TypeError(f"{fd.full_name}: the engine's {engine_type!r} has no attribute {attr!r}")
            options = _Options(
                enums=(enums or {}).get(fd.name),
                absent=(absent or {}).get(fd.name),
                has_absent=fd.name in (absent or {}),
                bound=(bounds or {}).get(fd.name),
                length=(lengths or {}).get(fd.name),
                codecs=codecs,
            )
            self.fields.append(_Derived(fd, attr, hints[attr], options))
        name = message_type.DESCRIPTOR.name
        #: ``filler(message, value)``: :meth:`fill`, compiled.
        self.filler: Callable[[Any, Any], None] = _function(
            f"fill_{name}", "m, v", *self._source(decoding=False)
        )
        #: ``decoder(message, path, error, known)``: :meth:`decode`, compiled.
        self.decoder: Callable[[Any, str, Error, Mapping[str, Any]], Any] = _function(
            f"decode_{name}", "m, path, error, known", *self._source(decoding=True)
        )

    def _source(self, decoding: bool) -> tuple[list[str], dict[str, Any]]:
        """Source of :meth:`fill`, or with ``decoding`` of :meth:`decode`, and the names it uses:
        field after field, derived ones inlined, hand-written ones called."""
        lines = ["out = dict(known)"] if decoding else []
        env: dict[str, Any] = {"build": self.build} if decoding else {}
        for i, field in enumerate(self.fields):
            if isinstance(field, _Derived):
                lines += field.get_source(i, env) if decoding else field.put_source(i, env)
            else:
                env[f"f{i}"] = field
                lines.append(f"f{i}.get(m, path, error, out)" if decoding else f"f{i}.put(m, v)")
        return ([*lines, "return build(**out)"] if decoding else lines), env

    def encode(self, value: Any) -> Any:
        message = self.message_type()
        self.filler(message, value)
        return message

    def fill(self, message: Any, value: Any) -> None:
        """Write ``value`` into the empty ``message`` in place (cheaper than building and copying)."""
        self.filler(message, value)

    def decode(self, message: Any, path: str = "", error: Error = ValueError, **known: Any) -> Any:
        """The engine object ``message`` carries; ``known`` supplies attributes not on the wire."""
        return self.decoder(message, path, error, known)


class Spread:
    """An engine tuple spread over several wire fields, in order (a FieldCodec)."""

    def __init__(self, message_type: type[Message], engine_type: Any, attr: str, wire: Sequence[str]) -> None:
        self.attr, self.wire = attr, tuple(wire)
        hints = get_args(get_type_hints(engine_type)[attr])
        fds = message_type.DESCRIPTOR.fields_by_name
        self.fields = [_Derived(fds[name], name, h, _Options()) for name, h in zip(wire, hints, strict=True)]

    def put(self, message: Any, obj: Any) -> None:
        for field, value in zip(self.fields, getattr(obj, self.attr), strict=True):
            field.put_value(message, value)

    def get(self, message: Any, path: str, error: Error, out: dict[str, Any]) -> None:
        out[self.attr] = tuple(field.get_value(message, path, error) for field in self.fields)


class Columns:
    """A repeated message field whose messages are the rows of the engine's parallel tuples.

    Each field of the row message is the entry of the engine tuple of the same name (``rename``
    for others); ``count`` names the engine attribute holding the number of rows, with its
    bounds (a FieldCodec).
    """

    def __init__(
        self,
        name: str,
        row_type: type[Message],
        engine_type: Any,
        count: tuple[str, int, int],
        rename: Mapping[str, str] | None = None,
    ) -> None:
        self.wire, self.name, self.count = (name,), name, count
        hints = get_type_hints(engine_type)
        self.fields = []
        for fd in row_type.DESCRIPTOR.fields:
            attr = (rename or {}).get(fd.name, fd.name)
            self.fields.append(_Derived(fd, attr, get_args(hints[attr])[0], _Options()))

    def put(self, message: Any, obj: Any) -> None:
        rows = getattr(message, self.name)
        columns = [(field.put_value, getattr(obj, field.attr)) for field in self.fields]
        for index in range(len(columns[0][1])):
            row = rows.add()
            for put, column in columns:
                put(row, column[index])

    def get(self, message: Any, path: str, error: Error, out: dict[str, Any]) -> None:
        here = join(path, self.name)
        attr, low, high = self.count
        rows = getattr(message, self.name)
        if not low <= len(rows) <= high:
            raise error(f"field `{here}`: {low} to {high} {self.name} are needed, not {len(rows)}")
        out[attr] = len(rows)
        paths = [f"{here}[{n}]" for n in range(len(rows))]
        for field in self.fields:
            out[field.attr] = tuple(
                field.get_value(row, where, error) for row, where in zip(rows, paths, strict=True)
            )


class TupleCodec:
    """A tuple and a message: the message's one repeated field, or its fields in order."""

    def __init__(self, message_type: type[Message], hint: Any) -> None:
        self.message_type = message_type
        fds: list[Any] = list(message_type.DESCRIPTOR.fields)
        if len(fds) == 1 and fds[0].is_repeated:
            self.wrapper: _Derived | None = _Derived(fds[0], "value", hint, _Options())
            return
        self.wrapper = None
        args = get_args(hint)
        hints = [args[0]] * len(fds) if args[-1] is Ellipsis else list(args)
        if len(hints) != len(fds):
            raise TypeError(f"{message_type.DESCRIPTOR.full_name}: {len(fds)} fields for a {hint}")
        self.fields = [_Derived(fd, fd.name, h, _Options()) for fd, h in zip(fds, hints, strict=True)]

    def fill(self, message: Any, value: Any) -> None:
        if self.wrapper is not None:
            self.wrapper.put_value(message, value)
            return
        for field, item in zip(self.fields, value, strict=True):
            field.put_value(message, item)

    def decode(self, message: Any, path: str, error: Error) -> Any:
        if self.wrapper is not None:
            return self.wrapper.get_value(message, path, error)
        return tuple(field.get_value(message, path, error) for field in self.fields)


class UnionCodec:
    """One of several engine classes and a message whose fields form one ``oneof``.

    Each member carries one class: the class named like the member's message type, or whose
    name ends like the member (``logs`` -> ``PlaceLogs``); ``members`` names others.
    """

    def __init__(
        self,
        message_type: type[Message],
        classes: Sequence[type],
        members: Mapping[str, type] | None = None,
        skip: Iterable[str] = ("decision_id",),
        codecs: Codecs | None = None,
    ) -> None:
        self.message_type = message_type
        skipped = set(skip)
        oneofs = [o for o in message_type.DESCRIPTOR.oneofs if not o.name.startswith("_")]
        if len(oneofs) != 1:
            raise TypeError(f"{message_type.DESCRIPTOR.full_name}: a union needs exactly one oneof")
        self.oneof = oneofs[0].name
        self.by_class: dict[type, tuple[str, ValueCodec]] = {}
        self.by_member: dict[str, ValueCodec] = {}
        for fd in oneofs[0].fields:
            cls = (members or {}).get(fd.name) or self._match(fd, classes)
            codec = value_codec(message_class(fd.message_type), cls, codecs)
            self.by_class[cls] = (fd.name, codec)
            self.by_member[fd.name] = codec
        known = set(self.by_member) | skipped
        others = [f.name for f in message_type.DESCRIPTOR.fields if f.name not in known]
        if others:
            raise TypeError(f"{message_type.DESCRIPTOR.full_name}: fields {others} are outside its oneof")
        self.members = list(self.by_member)

    @staticmethod
    def _match(fd: Any, classes: Sequence[type]) -> type:
        if fd.type != FieldDescriptor.TYPE_MESSAGE:
            raise TypeError(f"{fd.full_name}: a union member must be a message (or listed in `members`)")
        found = [
            c for c in classes if c.__name__ == fd.message_type.name or c.__name__.endswith(_camel(fd.name))
        ]
        if len(found) != 1:
            raise TypeError(f"{fd.full_name}: {len(found)} engine classes match it, not one")
        return found[0]

    def fill(self, message: Any, value: Any) -> None:
        member, codec = self.by_class[type(value)]
        sub = getattr(message, member)
        sub.SetInParent()
        codec.fill(sub, value)

    def decode(self, message: Any, path: str, error: Error) -> Any:
        member = message.WhichOneof(self.oneof)
        if member is None:
            listed = ", ".join(f"`{m}`" for m in self.members)
            raise error(f"oneof `{join(path, self.oneof)}` carries no value: set one of {listed}")
        return self.by_member[member].decode(getattr(message, member), join(path, member), error)
