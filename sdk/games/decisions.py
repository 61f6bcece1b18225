"""Decision kinds, declared once per game; everything on the wire derives from the declaration.

A game lists its decisions in one :class:`DecisionTable`: for each kind its name
(the match record's step kind and the bot method's name), its RPC, its request
and reply messages and the four codec functions. From that table come the
referee's client calls, the bot server's handlers, a bot's method dispatch and
the checks the tests run, so a new game writes none of them itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import grpc
    from google.protobuf.descriptor import ServiceDescriptor
    from google.protobuf.message import Message


@dataclass(frozen=True, slots=True)
class DecisionContext:
    """What the referee tells a bot about a decision besides the game state.

    ``decision_id`` counts this seat's own decisions from 1: it tells a bot
    nothing about how often the other seats were asked. ``game`` is the
    registry name of the game whose service was called (filled in on the bot's
    side; it is not on the wire).
    """

    match_id: str
    decision_id: int
    seat: int
    decision_ms: int
    time_bank_ms: int
    game: str = ""


class MalformedReplyError(ValueError):
    """A reply that does not decode into an action of the expected kind."""


class DecisionHandler(Protocol):
    """What the bot server calls: a bot, or anything that answers by kind."""

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any: ...


@dataclass(frozen=True, slots=True)
class DecisionSpec:
    """One decision kind of one game, and how it crosses the wire both ways.

    - ``encode_request(observation, context)``: the referee's request, built from
      the deciding seat's observation only;
    - ``decode_request(request)``: what the bot's method receives (its view of
      the game, e.g. a forward model);
    - ``encode_reply(action, decision_id)``: the bot's reply;
    - ``decode_reply(reply)``: the action a reply carries; raises
      :class:`MalformedReplyError` when it carries none (legality is the engine's job).
    """

    kind: str
    rpc: str
    request_type: type[Message]
    reply_type: type[Message]
    encode_request: Callable[[Any, DecisionContext], Message]
    decode_request: Callable[[Any], Any]
    encode_reply: Callable[[Any, int], Message]
    decode_reply: Callable[[Any], Any]
    summary: str = ""

    def __post_init__(self) -> None:
        if not self.kind.isidentifier():
            raise ValueError(f"decision kind {self.kind!r} must be a Python identifier (it names a method)")


class DecisionTable:
    """Every decision kind of a game, in the order its service declares them."""

    def __init__(
        self,
        game: str,
        service: ServiceDescriptor,
        specs: Sequence[DecisionSpec],
        game_of: Callable[[Any], str] | None = None,
    ) -> None:
        self.game = game
        #: The game a request is of, where one service serves several games (a game family's).
        self.game_of = game_of
        self.service_name = service.full_name
        self.specs: dict[str, DecisionSpec] = {spec.kind: spec for spec in specs}
        declared = {method.name for method in service.methods}
        listed = {spec.rpc for spec in specs}
        if declared != listed or len(self.specs) != len(specs):
            raise ValueError(
                f"{self.service_name}: the service declares {sorted(declared)}, the table lists "
                f"{sorted(listed)} (each RPC once, each kind once)"
            )

    def __iter__(self) -> Iterator[DecisionSpec]:
        return iter(self.specs.values())

    def __getitem__(self, kind: str) -> DecisionSpec:
        return self.specs[kind]

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.specs)

    def method_path(self, spec: DecisionSpec) -> str:
        return f"/{self.service_name}/{spec.rpc}"

    def client_calls(self, channel: grpc.Channel) -> dict[str, grpc.UnaryUnaryMultiCallable[Any, Any]]:
        """One callable per kind on ``channel`` (the referee's side), registered with the channel as
        generated stubs register theirs, so a call does not look its method up anew."""
        return {
            spec.kind: channel.unary_unary(
                self.method_path(spec),
                request_serializer=spec.request_type.SerializeToString,
                response_deserializer=spec.reply_type.FromString,
                _registered_method=True,  # type: ignore[call-arg]  # as grpcio's generated stubs pass it
            )
            for spec in self
        }

    def method_handlers(
        self, handler: DecisionHandler, context_of: Callable[[Any, str], DecisionContext]
    ) -> dict[str, grpc.RpcMethodHandler[Any, Any]]:
        """The game's service for a bot server, by RPC name: each decodes, asks ``handler``, encodes.

        A server registers them with ``add_registered_method_handlers`` (as generated code does), so
        each call reaches its handler without a search through generic handlers."""
        import grpc

        def method(spec: DecisionSpec) -> grpc.RpcMethodHandler[Any, Any]:
            def call(request: Any, rpc_context: grpc.ServicerContext) -> Message:
                game = self.game if self.game_of is None else self.game_of(request)
                context = context_of(request.context, game)
                action = handler.decide(spec.kind, spec.decode_request(request), context)
                return spec.encode_reply(action, context.decision_id)

            return grpc.unary_unary_rpc_method_handler(
                call,
                request_deserializer=spec.request_type.FromString,
                response_serializer=spec.reply_type.SerializeToString,
            )

        return {spec.rpc: method(spec) for spec in self}

    def missing_methods(self, cls: type) -> list[str]:
        """Kinds for which ``cls`` has no method of that name (a bot class must have all)."""
        return [kind for kind in self.kinds if not callable(getattr(cls, kind, None))]


def dispatch(target: object, kind: str, *args: Any) -> Any:
    """Call ``target``'s method named after the decision kind."""
    return getattr(target, kind)(*args)
