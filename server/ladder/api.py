"""The competition API under ``/api/ladder/``: participants submit and retire their bots with a
bearer token; the leaderboard is public. OpenAPI at ``/docs``.

Every refusal is a 4xx whose ``detail`` is one line, decided before anything is written.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Request, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, field_validator

from server.address import address_problem
from server.store.models import LadderParticipant
from server.tournament.bracket_checks import header_value_problem, name_problem
from server.tournament.bracket_errors import format_path

from .body_limit import BodyLimit
from .config import Ladder
from .store import VALIDATING, LadderError, LadderStore
from .tokens import MAX_TOKEN_CHARS

__all__ = ["MAX_JSON_BODY_BYTES", "create_app"]

MAX_JSON_BODY_BYTES = 64 * 1024
"""Largest body of a JSON request (a submission by address is a few hundred bytes)."""

_bearer = HTTPBearer(auto_error=False, description="The participant's token, from the organiser.")


class RemoteSubmission(BaseModel):
    """A bot the participant runs themselves, reached by the referee at ``address``."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="The bot's name, unique among the participant's bots.")
    address: str = Field(description="HOST:PORT of the bot's gRPC server.")
    tls: bool = Field(default=False, description="Reach the bot over TLS (system roots).")
    server_name: str | None = Field(
        default=None, description="Name the bot's certificate carries, if not the host."
    )
    token: str | None = Field(default=None, description="Bearer token the referee sends to the bot.")

    @field_validator("name")
    @classmethod
    def _name_usable(cls, value: str) -> str:
        return _checked(value, name_problem(value) or header_value_problem(value, "a bot name"))

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
    return found


Participant = Annotated[LadderParticipant, Depends(_authenticated)]
"""The participant making the request, by their bearer token."""


def create_app(ladder: Ladder, store: LadderStore) -> FastAPI:
    """The API of ``ladder``, kept in ``store``."""
    app = FastAPI(title=f"{ladder.name}: ladder API", version="1")
    app.state.store = store
    app.add_middleware(BodyLimit, limit=MAX_JSON_BODY_BYTES)

    @app.exception_handler(RequestValidationError)
    async def _one_line(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        loc = [part for part in first.get("loc", ()) if part != "body"]
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
        return [row.to_json() for row in store.bots(_id(participant))]

    @app.post("/api/ladder/bots", status_code=status.HTTP_201_CREATED, summary="Submit a bot by address")
    def submit(participant: Participant, submission: RemoteSubmission) -> dict[str, Any]:
        if participant.paused:
            raise HTTPException(status.HTTP_403_FORBIDDEN, "your participation is paused by the organiser")
        waiting = sum(1 for row in store.bots(_id(participant)) if row.status == VALIDATING)
        if waiting >= ladder.max_active_bots:
            raise HTTPException(
                status.HTTP_429_TOO_MANY_REQUESTS,
                f"{waiting} of your bots are still validating; submit again once they are done",
            )
        rating = ladder.initial_rating
        try:
            row = store.add_bot(
                _id(participant), submission.name, submission.spec(), mu=rating.mu, sigma=rating.sigma
            )
        except LadderError as exc:
            raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
        return row.to_json()

    @app.post("/api/ladder/bots/{name}/retire", summary="Retire one of my bots")
    def retire(participant: Participant, name: str) -> dict[str, Any]:
        try:
            return store.retire(name, _id(participant)).to_json()
        except LadderError as exc:
            raise HTTPException(status.HTTP_404_NOT_FOUND, str(exc)) from None

    return app


def _id(participant: LadderParticipant) -> int:
    assert participant.id is not None  # read from the database
    return participant.id


def _unauthorized(detail: str) -> HTTPException:
    return HTTPException(status.HTTP_401_UNAUTHORIZED, detail, headers={"WWW-Authenticate": "Bearer"})
