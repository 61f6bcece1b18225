"""A game's decision table derived from its service and its codecs.

Every method of the service is one decision kind (its name in snake case unless ``kinds``
says otherwise); its request is ``context`` + ``observation`` (+ any ``extras`` of that kind)
and its reply is ``decision_id`` + the action, both through the codecs of :mod:`.codec`.

A request may also list its legal answers as replies: a field ``legal``, repeated, of the
method's reply type. Given ``legal(observation)`` (the seat's legal actions), the table fills it,
each reply through the same codec with ``decision_id`` 0, so a bot in any language can copy one.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Union, get_origin

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from .codec import Codecs, MessageCodec, UnionCodec, ValueCodec, classes_of, message_class, value_codec
from .context_wire import fill_context
from .decisions import DecisionContext, DecisionSpec, DecisionTable, MalformedReplyError

if TYPE_CHECKING:
    from google.protobuf.descriptor import ServiceDescriptor

__all__ = ["ReplyCodec", "decision_table", "snake_case"]

Extras = Callable[[Any], Mapping[str, Any]]


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _is_hint(action: Any) -> bool:
    return isinstance(action, type) or get_origin(action) in (Union, types.UnionType)


class ReplyCodec:
    """A reply: ``decision_id`` and the action, as the reply's own fields, its ``oneof``, or in
    its one message field. ``action`` is the engine's action class (or a union of classes), or a
    hand-written codec for the reply's body."""

    def __init__(self, reply_type: type[Message], action: Any, codecs: Codecs | None = None) -> None:
        self.reply_type = reply_type
        rest = [f for f in reply_type.DESCRIPTOR.fields if f.name != "decision_id"]
        oneofs = [o for o in reply_type.DESCRIPTOR.oneofs if not o.name.startswith("_")]
        self.field: str | None = None
        self.body: ValueCodec
        if not _is_hint(action):
            self.body = action
        elif len(rest) == 1 and rest[0].type == FieldDescriptor.TYPE_MESSAGE and not oneofs:
            self.field = rest[0].name
            self.body = value_codec(message_class(rest[0].message_type), action, codecs)
        elif oneofs:
            self.body = UnionCodec(reply_type, classes_of(action), codecs=codecs)
        else:
            self.body = MessageCodec(reply_type, action, skip=("decision_id",), codecs=codecs)

    def encode(self, action: Any, decision_id: int) -> Message:
        reply = self.reply_type(decision_id=decision_id)
        self.fill(reply, action)
        return reply

    def fill(self, reply: Any, action: Any) -> None:
        """Write ``action`` into ``reply`` (its ``decision_id`` untouched)."""
        target: Any = reply
        if self.field is not None:
            target = getattr(reply, self.field)
            target.SetInParent()
        self.body.fill(target, action)

    def decode(self, reply: Any) -> Any:
        if self.field is None:
            return self.body.decode(reply, "", MalformedReplyError)
        if not reply.HasField(self.field):
            raise MalformedReplyError(f"field `{self.field}` is unset: the reply carries no action")
        return self.body.decode(getattr(reply, self.field), self.field, MalformedReplyError)


def decision_table(
    game: str,
    service: ServiceDescriptor,
    observation: MessageCodec,
    actions: Mapping[str, Any],
    summaries: Mapping[str, str],
    *,
    kinds: Mapping[str, str] | None = None,
    extras: Mapping[str, Extras] | None = None,
    decode_request: Callable[[str, Any], Any] | None = None,
    codecs: Codecs | None = None,
    legal: Callable[[Any], Iterable[Any]] | None = None,
) -> DecisionTable:
    """The table of ``service``: ``actions`` and ``summaries`` by kind (see :class:`ReplyCodec`).

    ``extras[kind](observation)`` gives a request's fields besides context and observation;
    ``decode_request(kind, request)`` replaces the default decoding (the observation alone);
    ``codecs`` gives the codec of a message type wherever a reply holds it; ``legal(observation)``
    gives the actions listed in a request's ``legal`` replies (see the module's docstring).
    """
    specs = []
    for method in service.methods:
        kind = (kinds or {}).get(method.name, snake_case(method.name))
        request_type = message_class(method.input_type)
        reply = ReplyCodec(message_class(method.output_type), actions[kind], codecs)
        specs.append(
            DecisionSpec(
                kind=kind,
                rpc=method.name,
                request_type=request_type,
                reply_type=reply.reply_type,
                encode_request=_request_encoder(
                    request_type,
                    observation,
                    (extras or {}).get(kind),
                    _legal_replies(reply, request_type, legal),
                ),
                decode_request=_request_decoder(kind, observation, decode_request),
                encode_reply=reply.encode,
                decode_reply=reply.decode,
                summary=summaries[kind],
            )
        )
    return DecisionTable(game, service, specs)


Filler = Callable[[Any, Any], None]


def _legal_replies(
    reply: ReplyCodec, request_type: type[Message], legal: Callable[[Any], Iterable[Any]] | None
) -> Filler | None:
    """What fills a request's ``legal`` replies from the observation, if it has such a field."""
    field = request_type.DESCRIPTOR.fields_by_name.get("legal")
    if legal is None or field is None or field.message_type is not reply.reply_type.DESCRIPTOR:
        return None

    def fill(request: Any, value: Any) -> None:
        add = request.legal.add
        for action in legal(value):
            reply.fill(add(), action)

    return fill


def _request_encoder(
    request_type: type[Message], observation: MessageCodec, extras: Extras | None, legal: Filler | None
) -> Callable[[Any, DecisionContext], Message]:
    def encode(value: Any, context: DecisionContext) -> Message:
        request: Any = request_type(**extras(value)) if extras else request_type()
        fill_context(request.context, context)  # in place: cheaper than building and copying
        observation.filler(request.observation, value)
        if legal is not None:
            legal(request, value)
        message: Message = request
        return message

    return encode


def _request_decoder(
    kind: str, observation: MessageCodec, custom: Callable[[str, Any], Any] | None
) -> Callable[[Any], Any]:
    def decode(request: Any) -> Any:
        if custom is not None:
            return custom(kind, request)
        return observation.decode(request.observation, "observation", ValueError)

    return decode
