"""Ladder files: the YAML an organiser writes to run a ladder, validated into a :class:`Ladder`.

Read and reported like a bracket (:mod:`server.tournament.model_file`): a problem is one line
naming the file, the line and the field. The clock, limits and game checks are the bracket's
own, so a bot plays a ladder match under exactly the rules it would meet in a bracket.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self

from pydantic import Field, ValidationInfo, field_validator, model_validator

from sdk.games.registry import get_game
from server.bot_output import PROCESS_LOG_CAP_BYTES
from server.bounds import MAX_SEED, MAX_WORKERS
from server.referee import RefereeConfig
from server.tournament.bracket_errors import FieldError
from server.tournament.bracket_params import normalized_params
from server.tournament.model_file import load_model
from server.tournament.shared_config import (
    CONTEXT_FILE,
    LimitsField,
    StartupTimeoutField,
    StrictModel,
    StrikesField,
    TimeControlField,
    installed_game,
    path_without_nul,
    referee_config,
    resolve_path,
    usable_name,
)

from .addresses import AddressPolicy, address_entry_problem
from .log_budget import LogBudget

__all__ = [
    "AddressRules",
    "Api",
    "InitialRating",
    "Ladder",
    "Logs",
    "Matchmaking",
    "Suspension",
    "Validation",
    "load_ladder",
]

MAX_ACTIVE_BOTS = 100
"""Most bots one participant may have active at once."""
MAX_SUBMISSION_MB = 1024
"""Largest submission limit an organiser may set (the archive as uploaded)."""
MAX_CANDIDATES = 10_000
MAX_SUBMISSIONS_PER_HOUR = 10_000
MAX_VALIDATION_S = 86_400.0
MAX_FORFEIT_WINDOW = 1_000
MIB = 1024 * 1024
MIN_BOT_LOGS_MB = -(-PROCESS_LOG_CAP_BYTES // MIB) + 1
"""A bot's share holds at least the largest log one of its processes writes, and its host's notes."""
MAX_LOGS_MB = 1024 * 1024
MAX_LOGS_PER_BOT = 1_000_000
MAX_REQUESTS_PER_S = 10_000.0
MAX_REQUEST_BURST = 100_000


class InitialRating(StrictModel):
    """The TrueSkill rating a bot starts at once validated."""

    mu: float = Field(default=25.0, strict=False, allow_inf_nan=False, description="Mean skill.")
    sigma: float = Field(
        default=25.0 / 3, gt=0, strict=False, allow_inf_nan=False, description="Uncertainty of the mean."
    )


class AddressRules(StrictModel):
    """Which addresses of bots that participants run themselves the ladder reaches (see
    :mod:`server.ladder.addresses`): globally routable ones unless denied, others only if allowed."""

    allow: list[str] = Field(
        default_factory=list,
        strict=True,
        description="Networks (203.0.113.0/24), IPs or host names (*.example.org) always reached, even "
        "private or loopback ones.",
    )
    deny: list[str] = Field(
        default_factory=list,
        strict=True,
        description="Networks, IPs or host names never reached (0.0.0.0/0 and ::/0: none but the allowed).",
    )

    @field_validator("allow", "deny")
    @classmethod
    def _entries_usable(cls, value: list[str]) -> list[str]:
        for entry in value:
            problem = address_entry_problem(entry)
            if problem is not None:
                raise ValueError(problem)
        return value

    def policy(self) -> AddressPolicy:
        return AddressPolicy(tuple(self.allow), tuple(self.deny))


class Validation(StrictModel):
    """How submissions are validated: several at once, each participant's in turn, each bounded."""

    workers: int = Field(
        default=2, ge=1, le=MAX_WORKERS, strict=True, description="Validations run at the same time."
    )
    per_participant: int = Field(
        default=1,
        ge=1,
        le=MAX_WORKERS,
        strict=True,
        description="Validations of one participant's bots run at the same time.",
    )
    timeout_s: float = Field(
        default=300.0,
        gt=0,
        le=MAX_VALIDATION_S,
        strict=False,
        allow_inf_nan=False,
        description="Longest a validation (check and validation match) may take, in seconds; a bot "
        "that takes longer fails.",
    )


class Suspension(StrictModel):
    """When an active bot is suspended for forfeiting: ``forfeits`` of its last ``matches`` matches."""

    forfeits: int = Field(
        default=3, ge=1, le=MAX_FORFEIT_WINDOW, strict=True, description="Forfeits that suspend a bot."
    )
    matches: int = Field(
        default=5,
        ge=1,
        le=MAX_FORFEIT_WINDOW,
        strict=True,
        description="The bot's last stored matches the forfeits are counted in.",
    )

    @model_validator(mode="after")
    def _fits(self) -> Self:
        if self.forfeits > self.matches:
            raise FieldError(
                f"forfeits ({self.forfeits}) cannot be more than the matches counted ({self.matches})",
                ("forfeits",),
            )
        return self


class Api(StrictModel):
    """How many authenticated API requests a participant may make (see :mod:`server.ladder.request_rate`)."""

    requests_per_s: float = Field(
        default=10.0,
        gt=0,
        le=MAX_REQUESTS_PER_S,
        strict=False,
        allow_inf_nan=False,
        description="A participant's authenticated requests a second, sustained; more get 429.",
    )
    burst: int = Field(
        default=60,
        ge=1,
        le=MAX_REQUEST_BURST,
        strict=True,
        description="A participant's authenticated requests allowed at once before the rate applies.",
    )


class Logs(StrictModel):
    """How much of the bots' logs the ladder keeps on disk (see :mod:`server.ladder.log_budget`)."""

    per_bot_matches: int = Field(
        default=100,
        ge=1,
        le=MAX_LOGS_PER_BOT,
        strict=True,
        description="Newest log files kept per bot (one per process launched for a match).",
    )
    per_bot_mb: int = Field(
        default=64,
        ge=MIN_BOT_LOGS_MB,
        le=MAX_LOGS_MB,
        strict=True,
        description="Most MiB of logs kept per bot, its newest.",
    )
    total_mb: int = Field(
        default=1024,
        ge=MIN_BOT_LOGS_MB,
        le=MAX_LOGS_MB,
        strict=True,
        description="Most MiB of logs (bots', checks', workers') kept in all, the oldest deleted first.",
    )

    @model_validator(mode="after")
    def _fits(self) -> Self:
        if self.per_bot_mb > self.total_mb:
            raise FieldError(
                f"cannot be more than total_mb ({self.total_mb}), got {self.per_bot_mb}",
                ("per_bot_mb",),
            )
        return self

    def budget(self) -> LogBudget:
        return LogBudget(self.per_bot_matches, self.per_bot_mb * MIB, self.total_mb * MIB)


class Matchmaking(StrictModel):
    """How tables are formed and how many are played at once."""

    workers: int = Field(
        default=1, ge=1, le=MAX_WORKERS, strict=True, description="Matches played at the same time."
    )
    candidates: int = Field(
        default=32,
        ge=1,
        le=MAX_CANDIDATES,
        strict=True,
        description="Active bots nearest in rating to the bot that most needs games that are "
        "considered to complete its table.",
    )
    min_quality: float = Field(
        default=0.0,
        ge=0,
        lt=1,
        strict=False,
        allow_inf_nan=False,
        description="TrueSkill match quality below which a table is not played (0: always play).",
    )


class Ladder(StrictModel):
    """A whole ladder: game, table size, clocks, limits, matchmaking and submission rules.

    Validated with a ladder file in the context (as :func:`load_ladder` does), ``database``
    is relative to its folder and defaults to ``<ladder stem>.db`` beside it.
    """

    name: str = Field(strict=True, description="Name of the ladder, shown on its leaderboard.")
    game: str = Field(strict=True, description="Registry name of an installed game plugin.")
    params: dict[str, Any] = Field(
        default_factory=dict, strict=True, description="Game parameters, normalized by the game plugin."
    )
    players: int = Field(strict=True, description="Players per table, within the game's player range.")
    time_control: TimeControlField
    strikes: StrikesField = 3
    startup_timeout_s: StartupTimeoutField = 20.0
    limits: LimitsField
    sandbox: bool = Field(
        default=True,
        strict=True,
        description="Run submitted programs in the sandbox; only an organiser's own test ladder "
        "should turn this off.",
    )
    matchmaking: Matchmaking = Field(default_factory=Matchmaking, description="How tables are formed.")
    initial_rating: InitialRating = Field(
        default_factory=InitialRating, description="Rating of a newly validated bot."
    )
    max_active_bots: int = Field(
        default=3,
        ge=1,
        le=MAX_ACTIVE_BOTS,
        strict=True,
        description="Active bots per participant; a participant's oldest are retired beyond it.",
    )
    submission_mb: int = Field(
        default=16,
        ge=1,
        le=MAX_SUBMISSION_MB,
        strict=True,
        description="Largest submitted archive, in MiB.",
    )
    submissions_per_hour: int = Field(
        default=10,
        ge=1,
        le=MAX_SUBMISSIONS_PER_HOUR,
        strict=True,
        description="Submissions one participant may make in any hour; more get 429 Too Many Requests.",
    )
    seed: int = Field(
        default=0, ge=0, le=MAX_SEED, strict=True, description="Master seed of every match's chance outcomes."
    )
    addresses: AddressRules = Field(
        default_factory=AddressRules, description="Which addresses of participants' own bots are reached."
    )
    validation: Validation = Field(default_factory=Validation, description="How submissions are validated.")
    suspension: Suspension = Field(
        default_factory=Suspension, description="When an active bot is suspended for forfeiting."
    )
    api: Api = Field(default_factory=Api, description="How many API requests a participant may make.")
    logs: Logs = Field(default_factory=Logs, description="How much of the bots' logs is kept on disk.")
    database: Path | None = Field(
        default=None,
        description="SQLite file of the ladder, relative to the ladder file's folder; default "
        "<ladder stem>.db beside it.",
    )

    @field_validator("name")
    @classmethod
    def _name_usable(cls, value: str) -> str:
        return usable_name(value, "ladder")

    @field_validator("game")
    @classmethod
    def _game_installed(cls, value: str) -> str:
        return installed_game(value)

    @field_validator("database")
    @classmethod
    def _database_path(cls, value: Path | None) -> Path | None:
        return path_without_nul(value)

    @model_validator(mode="after")
    def _fits_the_game(self, info: ValidationInfo) -> Self:
        """Table size and params against the game; the database beside the ladder file."""
        plugin = get_game(self.game)
        low, high = plugin.min_players, plugin.max_players
        if not low <= self.players <= high:
            raise FieldError(
                f"{self.game} is played by {low} to {high} players, got {self.players}", ("players",)
            )
        self.params = normalized_params(plugin, self.players, self.params)
        source = info.context.get(CONTEXT_FILE) if isinstance(info.context, dict) else None
        default = Path(f"{self.name if source is None else Path(source).stem}.db")
        self.database = resolve_path(default if self.database is None else self.database, info)
        return self

    @property
    def database_path(self) -> Path:
        """``database`` as a plain ``Path``: it is always set once validated."""
        assert self.database is not None
        return self.database

    @property
    def submission_bytes(self) -> int:
        return self.submission_mb * 1024 * 1024

    def referee_config(self) -> RefereeConfig:
        """Clock, strikes, start-up timeout and limits as the referee takes them."""
        return referee_config(self.time_control, self.strikes, self.startup_timeout_s, self.limits)


def load_ladder(path: Path) -> Ladder:
    """The ladder in ``path``; the first problem found is raised as a :class:`BracketError`."""
    path = Path(path)
    return load_model(path, Ladder, {CONTEXT_FILE: path}, "ladder")
