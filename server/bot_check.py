"""``smtourney bot check``: a conformance kit for bots written in any language.

It starts the bot exactly as the referee would (sandbox included), or reaches it
at its address, and checks in order: health, ``Hello``, ``StartMatch``, a reply
to scripted positions of every decision kind of the game (each within its
deadline, echoing its decision id, decodable and legal) and ``EndMatch``. Each
check gives one line naming the proto field at fault and how to fix it (for a
reply, on the game's docs page). A health check answered UNIMPLEMENTED, a refused
connection or a bot that exits ends the run at once with that reason, and the last
lines of the bot's output. A launched bot's output goes to a fresh log, whose path
the health line gives.
"""

from __future__ import annotations

import contextlib
import functools
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2

from sdk.games.plugin import DecisionContext, GamePlugin
from sdk.games.registry import games, get_game
from sdk.protocol import PROTOCOL_VERSION

from .bot_errors import describe_status, raised
from .bot_output import output_fault
from .check_positions import Position, positions
from .client import BotClient, Tls, describe_reply
from .launcher import BotProcess, Limits, StartupError

HEALTH_TIMEOUT_S = 5.0
UNREACHABLE = "the bot cannot be reached"
LOG_NAME = "bot-check.log"
DOCS = Path(__file__).resolve().parent.parent / "docs"
GUIDE = "docs/writing-a-bot.md"


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report: what was checked, whether it passed, and if not, how to fix it."""

    name: str
    passed: bool
    detail: str
    fix: str = ""
    output: tuple[str, ...] = ()
    """The bot's last lines of output, quoted below the line."""

    def line(self) -> str:
        mark = "PASS" if self.passed else "FAIL"
        fix = f" -- fix: {self.fix}" if self.fix and not self.passed else ""
        return f"{mark} {self.name}: {self.detail}{fix}"

    def lines(self) -> list[str]:
        """The line, then the quoted output, each to be printed as one line."""
        return [self.line(), *(f"    | {line}" for line in self.output)]


def docs_page(plugin: GamePlugin) -> str:
    """The game's page for bot authors, where its requests, replies and legal answers are listed: the
    plugin's ``docs_page`` if it names one, else ``docs/bots-<name>.md`` or ``docs/rules-<name>.md``
    when it exists, else the general guide."""
    named = getattr(plugin, "docs_page", None)
    if isinstance(named, str) and named:
        return named
    for prefix in ("bots", "rules"):
        page = DOCS / f"{prefix}-{plugin.name.replace('_', '-')}.md"
        if page.is_file():
            return f"docs/{page.name}"
    return GUIDE


class CheckAbortedError(Exception):
    """A failure after which nothing else can be checked."""


def check_bot(
    target: str,
    *,
    game: str | None,
    sandboxed: bool,
    log_dir: Path | None,
    players: int | None = None,
    startup_timeout_s: float = 20.0,
    decision_ms: int = 1000,
    report: Callable[[Check], None],
    program_dir: Path | None = None,
    limits: Limits | None = None,
    tls: Tls | None = None,
    token: str | None = None,
) -> bool:
    """Check the bot at ``target`` (a command, or an address); report each check; True if all pass.

    A launched bot writes its output to ``log_dir/bot-check.log``, started afresh (by default in a
    new temporary folder, left for the user to read); ``program_dir`` and ``limits`` launch it as a
    seat with those would be. An address is reached with ``tls`` and ``token``, as a seat would be.
    ``players`` checks only tables of that size (else the game's least and most).
    """
    connect = functools.partial(BotClient, tls=tls, token=token)
    failed = False

    def emit(check: Check) -> None:
        nonlocal failed
        failed = failed or not check.passed
        report(check)

    try:
        launch = _Launch(sandboxed, program_dir, limits or Limits())
        with _reach(target, launch, log_dir, startup_timeout_s, connect, emit) as (address, log):
            client_games = _hello(connect, address, game, log, emit)
            for plugin in client_games:
                _play_positions(connect, address, plugin, decision_ms, log, emit, players)
    except CheckAbortedError:
        return False
    return not failed


def is_address(target: str) -> bool:
    """``unix:PATH`` or one word ending in ``:PORT``: a bot that is already running."""
    host, sep, port = target.rpartition(":")
    return target.startswith("unix:") or (bool(sep and host and port.isdigit()) and " " not in target)


Connect = Callable[[str, GamePlugin], BotClient]
"""A client of the bot at an address, reaching it as the referee would (TLS, token)."""


@dataclass(frozen=True, slots=True)
class _Launch:
    """How a command is launched: sandboxed or not, its program folder, its limits."""

    sandboxed: bool
    program_dir: Path | None
    limits: Limits


@contextlib.contextmanager
def _reach(
    target: str,
    launch: _Launch,
    log_dir: Path | None,
    startup_timeout_s: float,
    connect: Connect,
    emit: Callable[[Check], None],
) -> Iterator[tuple[str, Path | None]]:
    """The bot's address, healthy, and its log if launched; a launched bot is stopped on the way out."""
    if is_address(target):
        _health_once(connect, target, emit)
        yield target, None
        return
    log = (log_dir or Path(tempfile.mkdtemp(prefix="smtourney-bot-check-"))) / LOG_NAME
    process = BotProcess(
        target, log, limits=launch.limits, sandboxed=launch.sandboxed, program_dir=launch.program_dir
    )
    try:
        log.unlink(missing_ok=True)
        process.start()
    except (OSError, ValueError) as exc:
        emit(Check("launch", False, str(exc), "check the command; it runs as the referee would run it"))
        raise CheckAbortedError from None
    try:
        try:
            process.wait_healthy(startup_timeout_s)
        except StartupError as exc:
            fix = _startup_fix(exc.reason, log, bool(exc.output))
            emit(Check("health", False, exc.reason, fix, exc.output))
            raise CheckAbortedError from None
        emit(Check("health", True, f"grpc.health.v1.Health/Check answered SERVING (the bot's output: {log})"))
        yield process.address, log
    finally:
        process.stop()
        if process.output is not None and process.output.dropped:
            fix = f"print less: the log keeps {process.output.cap:,} bytes per check and per match"
            emit(Check("output", False, output_fault(process.output.cap, process.output.dropped), fix))


def _startup_fix(reason: str, log: Path, quoted: bool) -> str:
    if "UNIMPLEMENTED" in reason:
        return "serve grpc.health.v1.Health and set the status of service '' to SERVING"
    output = f"its last output is below, all of it in {log}" if quoted else f"it wrote nothing to {log}"
    if "exited" in reason:
        return f"see why the bot stopped: {output}"
    return (
        "listen on SMTOURNEY_ADDRESS (a Unix socket) or on TCP at SMTOURNEY_PORT, and report SERVING "
        f"from Health/Check ({GUIDE}); {output}"
    )


def _health_once(connect: Connect, address: str, emit: Callable[[Check], None]) -> None:
    client = connect(address, next(iter(games().values())))
    try:
        check = client.channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        try:
            reply = check(
                health_pb2.HealthCheckRequest(service=""), timeout=HEALTH_TIMEOUT_S, metadata=client.metadata
            )
        except grpc.RpcError as exc:
            code = exc.code()
            if code == grpc.StatusCode.UNIMPLEMENTED:
                fix = "serve grpc.health.v1.Health and set the status of service '' to SERVING"
            elif code == grpc.StatusCode.UNAVAILABLE:
                fix = f"is the bot running and listening on {address}?"
            else:
                fix = "answer grpc.health.v1.Health/Check for service ''"
            emit(Check("health", False, f"Health/Check failed: {code.name}: {exc.details()}", fix))
            raise CheckAbortedError from None
    finally:
        client.close()
    if reply.status != health_pb2.HealthCheckResponse.SERVING:
        status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
        emit(Check("health", False, f"HealthCheckResponse.status is {status}", "report SERVING"))
        raise CheckAbortedError
    emit(Check("health", True, "grpc.health.v1.Health/Check answered SERVING"))


def _hello(
    connect: Connect, address: str, game: str | None, log: Path | None, emit: Callable[[Check], None]
) -> list[GamePlugin]:
    """Check ``Hello``; the games the bot will be checked at (``game``, else every installed one it lists)."""
    installed = games()
    chosen = get_game(game) if game is not None else None  # a family's game too (``prefix:name``)
    client = connect(address, chosen or next(iter(installed.values())))
    try:
        hello = client.hello()
    except grpc.RpcError as exc:
        emit(Check("Hello", False, describe_status(exc, log), "serve smtourney.v1.Bot/Hello"))
        raise CheckAbortedError from None
    finally:
        client.close()
    if hello.protocol_version != PROTOCOL_VERSION:
        emit(
            Check(
                "Hello",
                False,
                f"HelloReply.protocol_version is {hello.protocol_version}, "
                f"the referee speaks {PROTOCOL_VERSION}",
                f"set protocol_version: {PROTOCOL_VERSION}",
            )
        )
        raise CheckAbortedError
    emit(Check("Hello", True, f"{hello.name} {hello.version}, protocol {hello.protocol_version}"))
    if not hello.name:
        emit(Check("Hello", False, "HelloReply.name is empty", "give the bot a name: standings show it"))
    wanted = [game] if game is not None else [name for name in hello.games if name in installed]
    missing = [name for name in wanted if name not in hello.games]
    if not wanted or missing:
        listed = ", ".join(hello.games) or "nothing"
        emit(
            Check(
                "Hello",
                False,
                f"HelloReply.games lists {listed}"
                + (f", not {', '.join(missing)}" if missing else ", no installed game"),
                f"list the game's registry name in games (installed: {', '.join(installed)})",
            )
        )
        raise CheckAbortedError
    return [chosen] if chosen is not None else [installed[name] for name in wanted]


def _play_positions(
    connect: Connect,
    address: str,
    plugin: GamePlugin,
    decision_ms: int,
    log: Path | None,
    emit: Callable[[Check], None],
    players: int | None,
) -> None:
    """StartMatch, one decision and EndMatch per position; StartMatch is reported after the first,
    EndMatch after the last (each failure where it happens), so the report reads in match order."""
    client = connect(address, plugin)
    ended = []
    try:
        for number, position in enumerate(positions(plugin, players=players)):
            match_id = f"check-{plugin.name}-{number}"
            start = functools.partial(_start, client, match_id, position, plugin, decision_ms)
            if not _lifecycle("StartMatch", emit, start, log, announce=number == 0):
                if number == 0:  # a bot that cannot start a match cannot be checked further
                    raise CheckAbortedError
                continue
            check = _decide(client, plugin, position, match_id, decision_ms, log)
            emit(check)
            if check.detail.startswith(UNREACHABLE):
                raise CheckAbortedError
            end = functools.partial(_end, client, match_id, position)
            ended.append(_lifecycle("EndMatch", emit, end, log, announce=False))
    finally:
        client.close()
    if ended and all(ended):
        emit(Check("EndMatch", True, "smtourney.v1.Bot/EndMatch answered"))


def _start(
    client: BotClient, match_id: str, position: Position, plugin: GamePlugin, decision_ms: int
) -> None:
    client.start_match(
        match_id=match_id,
        seat=position.seat,
        players=position.players,
        params=plugin.normalize_params({}),
        decision_ms=decision_ms,
        bank_ms=0,
    )


def _end(client: BotClient, match_id: str, position: Position) -> None:
    n = position.players
    client.end_match(match_id=match_id, scores=[0] * n, ranks=[1] * n, forfeited=[False] * n, completed=False)


def _lifecycle(
    rpc: str, emit: Callable[[Check], None], call: Callable[[], None], log: Path | None, *, announce: bool
) -> bool:
    """Call a lifecycle RPC; report it if it fails, or if ``announce``."""
    try:
        call()
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.UNAVAILABLE:
            emit(Check(rpc, False, f"{UNREACHABLE} ({exc.details()})", "keep serving until SIGTERM"))
            raise CheckAbortedError from None
        emit(
            Check(
                rpc,
                False,
                f"smtourney.v1.Bot/{rpc} failed: {describe_status(exc, log)}",
                f"answer {rpc} with an empty {rpc}Reply within 5 s",
            )
        )
        return False
    if announce:
        emit(Check(rpc, True, f"smtourney.v1.Bot/{rpc} answered"))
    return True


def _decide(
    client: BotClient,
    plugin: GamePlugin,
    position: Position,
    match_id: str,
    decision_ms: int,
    log: Path | None,
) -> Check:
    """One scripted decision: on time, echoing its id, decodable, legal."""
    kind = plugin.decision_kind(position.state)
    spec = plugin.decisions[kind]
    name = f"{spec.rpc} ({position.label})"
    reply_name = spec.reply_type.DESCRIPTOR.name
    page = docs_page(plugin)
    context = DecisionContext(match_id, position.decision_id, position.seat, decision_ms, 0)
    request = spec.encode_request(plugin.observe(position.state, position.seat), context)
    started = time.perf_counter()
    try:
        reply = client.decide(kind, request, decision_ms / 1000)
    except grpc.RpcError as exc:
        code = exc.code()
        if code == grpc.StatusCode.DEADLINE_EXCEEDED:
            fix = f"answer within decision_ms ({page})"
            return Check(name, False, f"no {reply_name} within {decision_ms} ms", fix)
        if code == grpc.StatusCode.UNIMPLEMENTED:
            fix = f"implement {plugin.decisions.method_path(spec)} ({page})"
            return Check(name, False, f"{plugin.decisions.method_path(spec)} is not implemented", fix)
        if code == grpc.StatusCode.UNAVAILABLE:
            return Check(name, False, f"{UNREACHABLE} ({exc.details()})", "keep serving until SIGTERM")
        if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
            return Check(
                name, False, f"{reply_name} is too large: {exc.details()}", "replies are at most 4 MiB"
            )
        if raised(exc):
            fix = f"mend the bot's method: it must return the answer to {spec.rpc} ({page})"
        else:
            fix = f"answer with {with_article(reply_name)}, not an error status ({page})"
        return Check(name, False, describe_status(exc, log), fix)
    took_ms = (time.perf_counter() - started) * 1000
    answered = getattr(reply, "decision_id", None)
    if reply.ByteSize() == 0:
        return Check(
            name, False, f"{reply_name} is empty", f"set decision_id and the answer's fields ({page})"
        )
    if answered != position.decision_id:
        return Check(
            name,
            False,
            f"{reply_name}.decision_id is {answered}, expected {position.decision_id}",
            f"copy request.context.decision_id (a uint64) into the reply ({page})",
        )
    try:
        action = spec.decode_reply(reply)
    except (ValueError, TypeError) as exc:
        return Check(
            name,
            False,
            f"{describe_reply(reply)} is malformed: {exc}",
            _answer_hint(spec.summary, page),
        )
    trial = position.state.clone()
    try:
        trial.apply(action)
    except (ValueError, TypeError) as exc:
        return Check(
            name,
            False,
            f"{describe_reply(reply)} is illegal: {exc}",
            _answer_hint(spec.summary, page),
        )
    return Check(name, True, f"{describe_reply(reply)} is legal ({took_ms:.0f} ms)")


def with_article(name: str) -> str:
    """``a PlaceReply``, ``an AdvanceReputationReply``: the article a reader expects, by sound of the first
    letter (message names are English words in CamelCase)."""
    return f"{'an' if name[:1].upper() in 'AEIOU' else 'a'} {name}"


def _answer_hint(summary: str, page: str) -> str:
    answer = f"the reply answers: {summary}; " if summary else ""
    return f"{answer}{page} lists the reply's fields and what is legal"
