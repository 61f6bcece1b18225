"""The competition API under ``/api/ladder/``: participants submit (by address or as an archive),
follow and retire their bots and see their matches with a bearer token; the leaderboard and the
replays of ended matches are public. OpenAPI at ``/docs``.

Every refusal is a 4xx whose ``detail`` is one line, decided before anything is written.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Query, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.requests import ClientDisconnect

from server.address import address_problem
from server.bot_output import PROCESS_LOG_CAP_BYTES
from server.store.models import LadderParticipant
from server.tournament.bracket_checks import command_problem, header_value_problem, name_problem
from server.tournament.bracket_errors import format_path
from server.web.app import viewer_app
from server.web.catalog import Catalog, NotFoundError, UnreadableReplayError
from server.web.deps import MAX_ROW_ID, RowId

from .addresses import AddressRefusedError, command_looks_like_address
from .archive import ArchiveError
from .body_limit import BodyLimit
from .checking import CheckReport
from .config import Ladder
from .history import MatchInProgressError, ended_match, matches_of
from .match_logs import newest_match_log
from .outage_reply import answer_outages
from .programs import Programs, default_data_dir
from .request_rate import RequestRate
from .seating import entrant_name
from .store import BotRow, LadderError, LadderStore, LimitError, SubmissionLimits
from .tokens import MAX_TOKEN_CHARS

__all__ = ["MAX_JSON_BODY_BYTES", "create_app"]

MAX_JSON_BODY_BYTES = 64 * 1024
"""Largest body of a JSON request (a submission by address is a few hundred bytes)."""

_bearer = HTTPBearer(auto_error=False, description="The participant's token, from the organiser.")


class _Submission(BaseModel):
    """What every submission gives: the bot's name."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="The bot's name, unique among the participant's bots.")

    @field_validator("name")
    @classmethod
    def _name_usable(cls, value: str) -> str:
        return _checked(
            value, name_problem(value) or header_value_problem(value, "a bot name") or _path_problem(value)
        )


class RemoteSubmission(_Submission):
    """A bot the participant runs themselves, reached by the referee at ``address``."""

    address: str = Field(description="HOST:PORT of the bot's gRPC server.")
    tls: bool = Field(default=False, description="Reach the bot over TLS (system roots).")
    server_name: str | None = Field(
        default=None, description="Name the bot's certificate carries, if not the host."
    )
    token: str | None = Field(default=None, description="Bearer token the referee sends to the bot.")

    @field_validator("address")
    @classmethod
    def _address_usable(cls, value: str) -> str:
        if value.startswith("unix:"):
            raise ValueError("a submitted bot is reached over the network: give HOST:PORT")
        return _checked(value, address_problem(value))

    @field_validator("server_name", "token")
    @classmethod
    def _sendable(cls, value: str | None) -> str | None:
        return None if value is None else _checked(value, header_value_problem(value, "the value"))

    def spec(self) -> dict[str, Any]:
        """How the referee reaches the bot, as stored."""
        return {
            "address": self.address,
            "tls": self.tls,
            "server_name": self.server_name,
            "token": self.token,
        }


class ArchiveSubmission(_Submission):
    """A program folder the ladder runs in its sandbox: its name and command, beside the archive."""

    command: str = Field(
        description="The command that starts the bot, run inside the unpacked folder, e.g. "
        "`python bot.py` or `node bot.js`; it listens at SMTOURNEY_ADDRESS or SMTOURNEY_PORT."
    )

    @field_validator("command")
    @classmethod
    def _command_usable(cls, value: str) -> str:
        if command_looks_like_address(value):
            raise ValueError(
                "an archive's command is run in its folder, in the sandbox (e.g. python bot.py), never "
                "reached as an address: submit a bot you run yourself by address instead"
            )
        return _checked(value, command_problem(value))


ARCHIVE_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "The program folder as a .zip or a .tar.gz (the raw bytes of the file, not a "
        "form); a single top-level folder is taken as the program folder.",
        "content": {
            kind: {"schema": {"type": "string", "format": "binary"}}
            for kind in ("application/gzip", "application/zip", "application/octet-stream")
        },
    }
}


class Refusal(BaseModel):
    """Why a request was refused, in one line."""

    detail: str


REFUSALS = {
    401: "A missing, unknown or revoked token.",
    403: "Your participation is paused by the organiser.",
    404: "No such bot of yours, or no such match.",
    409: "A name you already used; a match not ended yet.",
    413: "A body over the limit (an archive: `submission_mb`, uploaded or unpacked).",
    422: "A field that cannot be used, or an archive refused (paths, links, devices, entries).",
    429: "Too many of your bots validating, too many submissions this hour, an upload under way, or "
    "too many requests (with Retry-After).",
}


def _refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of a route's refusals."""
    return {code: {"model": Refusal, "description": REFUSALS[code]} for code in codes}


def _path_problem(name: str) -> str | None:
    """A bot is fetched and retired at ``/api/ladder/bots/NAME``: a name that cannot be one path
    segment there (a ``/``, or ``.`` and ``..``, which clients fold away) is refused."""
    if "/" in name or name in (".", ".."):
        return "a bot name cannot contain / nor be . or ..: it is part of the bot's URL"
    return None


def _checked(value: str, problem: str | None) -> str:
    if problem is not None:
        raise ValueError(problem)
    return value


def _authenticated(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> LadderParticipant:
    """The participant the bearer token belongs to; 401 for a missing, malformed or unknown one."""
    if credentials is None:
        raise _unauthorized("a token is needed: send the header Authorization: Bearer TOKEN")
    token = credentials.credentials
    store: LadderStore = request.app.state.store
    found = None if len(token) > MAX_TOKEN_CHARS else store.participant_for_token(token)
    if found is None:
        raise _unauthorized("unknown or revoked token")
    rate: RequestRate = request.app.state.request_rate
    wait_s = rate.wait_s(_id(found))
    if wait_s > 0:
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS,
            "too many requests: slow down and try again after Retry-After seconds",
            headers={"Retry-After": str(math.ceil(wait_s))},
        )
    return found


Participant = Annotated[LadderParticipant, Depends(_authenticated)]
"""The participant making the request, by their bearer token."""


def create_app(
    ladder: Ladder, store: LadderStore, *, data_dir: Path | None = None, log_dir: Path = Path("logs")
) -> FastAPI:
    """The API of ``ladder``, kept in ``store``; submitted programs unpacked under ``data_dir`` (default:
    beside the ladder's SQLite file), checks' reports read from ``log_dir``."""
    app = FastAPI(title=f"{ladder.name}: ladder API", version="1")
    app.state.store = store
    app.state.request_rate = RequestRate(ladder.api.requests_per_s, ladder.api.burst)
    programs = Programs(data_dir or default_data_dir(ladder.database_path))
    uploading: set[int] = set()
    """Participants with an upload under way."""
    app.add_middleware(BodyLimit, limit=MAX_JSON_BODY_BYTES, paths={ARCHIVE_PATH: ladder.submission_bytes})
    answer_outages(app)

    @app.exception_handler(RequestValidationError)
    async def _one_line(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        loc = [part for part in first.get("loc", ()) if part not in ("body", "query")]
        message = str(first.get("msg", "invalid request")).removeprefix("Value error, ")
        where = format_path(loc)
        detail = f"{where}: {message}" if where else message
        return JSONResponse({"detail": detail}, status_code=422)

    @app.get(
        "/api/ladder/leaderboard",
        summary="The public leaderboard, best first",
        response_model=list[dict[str, Any]],
    )
    def leaderboard() -> JSONResponse:
        # Its rows are plain JSON already: sent as they are, without a second encoding pass.
        return JSONResponse([row.to_json() for row in store.leaderboard()])

    @app.get("/api/ladder/bots", summary="My bots and their status")
    def my_bots(participant: Participant) -> list[dict[str, Any]]:
        """Each with the lines of its check and the last lines its program wrote while checked."""
        return [_with_report(row, log_dir) for row in store.bots(_id(participant))]

    @app.post(
        "/api/ladder/bots",
        status_code=status.HTTP_201_CREATED,
        summary="Submit a bot by address",
        responses=_refusals(401, 403, 409, 413, 422, 429),
    )
    def submit(participant: Participant, submission: RemoteSubmission) -> dict[str, Any]:
        limits = _limits(ladder)
        _may_submit(store, participant, submission.name, limits)
        try:
            ladder.addresses.policy().reach_spec(submission.spec())
        except AddressRefusedError as exc:
            raise HTTPException(422, f"address: {exc}") from None
        return _added(store, ladder, participant, submission.name, submission.spec(), limits).to_json()

    @app.post("/api/ladder/bots/{name}/retire", summary="Retire one of my bots")
    def retire(participant: Participant, name: str) -> dict[str, Any]:
        try:
            return store.retire(name, _id(participant)).to_json()
        except LadderError as exc:
            raise HTTPException(status.HTTP_404_NOT_FOUND, str(exc)) from None

    @app.get(
        "/api/ladder/bots/{name}", summary="One of my bots and its status", responses=_refusals(401, 404)
    )
    def my_bot(participant: Participant, name: str) -> dict[str, Any]:
        for row in store.bots(_id(participant)):
            if row.name == name:
                return _with_report(row, log_dir)
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"{participant.name} has no bot named {name!r}")

    @app.get(
        "/api/ladder/bots/{name}/log",
        summary="The log of my bot's newest match still kept, or of the match asked for",
        response_class=Response,
        responses=_refusals(401, 404),
    )
    def my_bot_log(
        participant: Participant, name: str, match: Annotated[int | None, Query(ge=1)] = None
    ) -> Response:
        """What the bot's process wrote (its output, and the ladder's lines naming each match), as
        plain text, in its newest match or in ladder match ``match``; older logs are deleted as the
        ladder's log budget says (docs/ladder.md). Only the bot's owner is served."""
        row = next((row for row in store.bots(_id(participant)) if row.name == name), None)
        if row is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND, f"{participant.name} has no bot named {name!r}")
        seats = {seat for seat in store.seats_of(row.id) if match is None or seat[0] == match}
        found = newest_match_log(log_dir, entrant_name(participant.name, name), seats)
        text = None if found is None else _tail(found, PROCESS_LOG_CAP_BYTES)
        if text is None:
            which = "a match" if match is None else f"match {match}"
            raise HTTPException(status.HTTP_404_NOT_FOUND, f"no log of {which} of {name!r} is kept")
        return Response(text, media_type="text/plain; charset=utf-8")

    @app.post(
        ARCHIVE_PATH,
        status_code=status.HTTP_201_CREATED,
        summary="Submit a bot as an archive of its program folder",
        openapi_extra=ARCHIVE_BODY,
        responses=_refusals(401, 403, 409, 413, 422, 429),
    )
    async def submit_archive(
        request: Request, participant: Participant, submission: Annotated[ArchiveSubmission, Query()]
    ) -> dict[str, Any]:
        """The body is the archive itself, at most the ladder's `submission_mb`; it is unpacked
        safely and run only in the sandbox. One upload per participant at a time."""
        me = _id(participant)
        if me in uploading:
            raise HTTPException(
                status.HTTP_429_TOO_MANY_REQUESTS, "another upload of yours is under way; send one at a time"
            )
        uploading.add(me)  # no await since the check: no other upload of theirs can slip in between
        try:
            limits = _limits(ladder)
            await run_in_threadpool(_may_submit, store, participant, submission.name, limits)
            try:
                program = await _unpacked(request)
            except HTTPException as exc:
                if exc.status_code != status.HTTP_400_BAD_REQUEST:  # refused, not cut short
                    await run_in_threadpool(store.add_refused_upload, me)
                raise
            spec = {"dir": str(program), "command": submission.command}
            try:
                row = await run_in_threadpool(
                    _added, store, ladder, participant, submission.name, spec, limits
                )
            except BaseException:
                programs.discard(program)
                raise
            return row.to_json()
        finally:
            uploading.discard(me)

    async def _unpacked(request: Request) -> Path:
        """The request's body received on disk and unpacked; the program folder."""
        with programs.upload() as upload:
            try:
                async for chunk in request.stream():
                    upload.write(chunk)
            except ClientDisconnect:  # or refused by the body limit: nobody reads this reply
                raise HTTPException(status.HTTP_400_BAD_REQUEST, "the upload ended early") from None
            try:
                return await run_in_threadpool(programs.unpack, upload, ladder.submission_bytes)
            except ArchiveError as exc:
                code = status.HTTP_413_CONTENT_TOO_LARGE if exc.too_large else 422
                raise HTTPException(code, f"archive: {exc}") from None

    @app.get("/api/ladder/matches", summary="The matches of my bots, newest first", responses=_refusals(401))
    def my_matches(
        participant: Participant,
        bot: Annotated[str | None, Query(description="Only the matches of this bot of mine.")] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_MATCHES_PAGE, description="At most this many.")] = 100,
        before: Annotated[
            int | None,
            Query(ge=1, le=MAX_ROW_ID, description="Only matches with a smaller id (the next page)."),
        ] = None,
    ) -> list[dict[str, Any]]:
        """Every seat with its bot and participant; scores, ranks and forfeits once the match has ended."""
        found = matches_of(store.store, _id(participant), bot=bot, limit=limit, before=before)
        return [row.to_json() for row in found]

    @app.get(
        "/api/ladder/matches/{match_id}/replay",
        summary="The replay of an ended match (public)",
        responses=_refusals(404, 409),
    )
    def replay(match_id: RowId) -> JSONResponse:
        """The replay format of docs/replay-format.md, as the web viewer gives it; a match in
        progress has none yet (409)."""
        try:
            tournament_id, stored_id = ended_match(store.store, match_id)
        except MatchInProgressError as exc:
            raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
        except LadderError as exc:
            raise HTTPException(status.HTTP_404_NOT_FOUND, str(exc)) from None
        try:
            found = Catalog(store.store).replay(tournament_id, stored_id)
        except NotFoundError as exc:
            raise HTTPException(status.HTTP_404_NOT_FOUND, str(exc)) from None
        except UnreadableReplayError as exc:
            raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR, str(exc)) from None
        disposition = f'attachment; filename="ladder-match-{match_id}.json"'
        return JSONResponse(found, headers={"Content-Disposition": disposition})

    # Everything else is the web viewer over the same database: the ladder's live pages and the
    # replays of its finished matches. Mounted, not merged, so each keeps its own error replies.
    app.mount("/", viewer_app(store.store))
    return app


ARCHIVE_PATH = "/api/ladder/bots/archive"
MAX_MATCHES_PAGE = 1000


def _limits(ladder: Ladder) -> SubmissionLimits:
    return SubmissionLimits(ladder.max_active_bots, ladder.submissions_per_hour)


def _may_submit(
    store: LadderStore, participant: LadderParticipant, name: str, limits: SubmissionLimits
) -> None:
    """Refuse a submission before anything is read or written: paused, too many at once or within the
    hour, or a name already used. Checked again when the bot is added, atomically."""
    if participant.paused:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "your participation is paused by the organiser")
    try:
        store.check_limits(_id(participant), limits)
    except LimitError as exc:
        raise _too_many(exc) from None
    if any(row.name == name for row in store.bots(_id(participant))):
        raise HTTPException(
            status.HTTP_409_CONFLICT, f"you already have a bot named {name!r}; give the new one another name"
        )


def _added(
    store: LadderStore,
    ladder: Ladder,
    participant: LadderParticipant,
    name: str,
    spec: dict[str, Any],
    limits: SubmissionLimits,
) -> BotRow:
    """The new bot, its limits checked and its row inserted in one transaction."""
    rating = ladder.initial_rating
    try:
        return store.add_bot(_id(participant), name, spec, mu=rating.mu, sigma=rating.sigma, limits=limits)
    except LimitError as exc:
        raise _too_many(exc) from None
    except LadderError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None


def _too_many(exc: LimitError) -> HTTPException:
    headers = None if exc.retry_after_s is None else {"Retry-After": str(exc.retry_after_s)}
    return HTTPException(status.HTTP_429_TOO_MANY_REQUESTS, str(exc), headers=headers)


def _with_report(row: BotRow, log_dir: Path) -> dict[str, Any]:
    """A bot as its owner sees it: with its check's lines and the last lines its program wrote."""
    report = CheckReport(log_dir, row.id)
    return {**row.to_json(), "check": report.lines(), "log": report.log_tail()}


def _tail(path: Path, most: int) -> bytes | None:
    """The last ``most`` bytes of ``path``; None if it was deleted meanwhile."""
    try:
        with path.open("rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - most))
            return file.read()
    except FileNotFoundError:
        return None


def _id(participant: LadderParticipant) -> int:
    assert participant.id is not None  # read from the database
    return participant.id


def _unauthorized(detail: str) -> HTTPException:
    return HTTPException(status.HTTP_401_UNAUTHORIZED, detail, headers={"WWW-Authenticate": "Bearer"})
