"""Bracket files: the YAML that describes a tournament, validated into a :class:`Bracket`.

A bracket names the game, the table size, the format and the entrants; everything
else has a default. :func:`load_bracket` reads one and reports a problem as a
:class:`BracketError` that names the file, the line and the field, e.g.::

    tournaments/x.yaml:12: entrants[2].name: duplicate entrant name 'greedy' (also entrants[0])

Only the first problem is reported: the first one met, and among problems met
together, the one nearest the top of the file. Fixing it and loading again shows
the next, so a user never reads a cascade of errors caused by one typo.

Relative paths in a bracket (``database``, ``tls.ca_file``) are relative to the
bracket file's folder, so a bracket means the same wherever it is run from.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import Field, ValidationInfo, field_validator, model_validator

from sdk.games.registry import get_game
from server.address import address_problem
from server.bounds import (
    MAX_SEED,
    MAX_WORKERS,
)
from server.client import Tls
from server.inprocess import bot_class_problem, load_bot_class
from server.referee import RefereeConfig
from server.sandbox import sandbox_available
from server.seats import SeatSpec

from .bracket_checks import command_problem, env_problem, header_value_problem, name_problem
from .bracket_errors import BracketError, FieldError, format_path, show
from .bracket_params import normalized_params
from .bracket_plan import plan_problem, plan_size
from .executor import EXECUTORS
from .formats import FORMATS
from .model_file import load_model
from .progression import Plan, SprtRule, StageRules, StopRule
from .schedule import MAX_ENTRANTS, MAX_MATCHES
from .shared_config import (
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
    source_file,
    usable_name,
)

__all__ = [
    "Bracket",
    "BracketError",
    "Entrant",
    "SprtConfig",
    "StageConfig",
    "TlsConfig",
    "UntilConfig",
    "format_path",
    "load_bracket",
]

FINGERPRINT_VERSION = 1
"""Bumped whenever :meth:`Bracket.fingerprint` starts hashing differently."""

MAX_CA_FILE_BYTES = 1024 * 1024
"""A certificate authority bundle is a few kilobytes; the system's whole store is under 1 MiB."""


# --- the model ------------------------------------------------------------------------------------


class TlsConfig(StrictModel):
    """TLS towards a bot reached by address; ``tls: true`` is this with both fields unset."""

    ca_file: Path | None = Field(
        default=None,
        description="PEM file of the certificate authority to trust, relative to the bracket's folder; "
        "null trusts the system roots.",
    )
    server_name: str | None = Field(
        default=None,
        strict=True,
        min_length=1,
        description="Name the bot's certificate must carry, when it is not the address's host.",
    )

    @field_validator("ca_file")
    @classmethod
    def _ca_file_exists(cls, value: Path | None, info: ValidationInfo) -> Path | None:
        """Resolved against the bracket's folder, and checked now rather than mid-tournament."""
        if value is None:
            return None
        path = resolve_path(value, info)
        if not path.is_file():
            raise ValueError(f"file not found: {path}")
        if path.stat().st_size > MAX_CA_FILE_BYTES:
            raise ValueError(f"{path} is larger than {MAX_CA_FILE_BYTES:,} bytes: not a certificate file")
        return path

    @field_validator("server_name")
    @classmethod
    def _server_name_form(cls, value: str | None) -> str | None:
        problem = None if value is None else header_value_problem(value, "a server name")
        if problem is not None:
            raise ValueError(problem)
        return value


class UntilConfig(StrictModel):
    """The stopping rule: rounds are added until the ranking is settled, or ``max_rounds``."""

    confidence: float = Field(
        gt=0.5,
        lt=1,
        strict=False,
        allow_inf_nan=False,
        description="Probability under the rating model with which each checked pair must be ordered.",
    )
    max_rounds: int = Field(ge=1, le=MAX_MATCHES, strict=True, description="Rounds played at most.")

    def rule(self) -> StopRule:
        return StopRule(self.confidence, self.max_rounds)


class SprtConfig(StrictModel):
    """A sequential probability ratio test between the two entrants of a gauntlet."""

    p0: float = Field(
        gt=0, lt=1, allow_inf_nan=False, description="Expected score of the candidate under H0."
    )
    p1: float = Field(
        gt=0, lt=1, allow_inf_nan=False, description="Expected score of the candidate under H1."
    )
    alpha: float = Field(
        default=0.05, gt=0, lt=0.5, allow_inf_nan=False, description="Chance of H1 when H0 holds."
    )
    beta: float = Field(
        default=0.05, gt=0, lt=0.5, allow_inf_nan=False, description="Chance of H0 when H1 holds."
    )
    max_rounds: int = Field(
        default=1000, ge=1, le=MAX_MATCHES // 2, strict=True, description="Pairs played at most."
    )

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.p0 >= self.p1:
            raise FieldError(f"p1 must be above p0 ({self.p0}), got {self.p1}", ("p1",))
        return self

    def rule(self) -> SprtRule:
        return SprtRule(self.p0, self.p1, self.alpha, self.beta, self.max_rounds)


RESEED = "A knockout: seed those who go on again after every level, instead of a fixed tree."


class StageConfig(StrictModel):
    """One stage of a bracket with ``stages``: its own format, rounds and settings."""

    name: str = Field(
        strict=True,
        pattern=r"^[A-Za-z0-9_-]{1,32}$",
        description="Letters, digits, - and _ (at most 32): prefixes the stage's match ids.",
    )
    format: str = Field(default="round-robin", strict=True, description="The stage's format.")
    rounds: int = Field(default=1, ge=1, le=MAX_MATCHES, strict=True, description="Rounds of the stage.")
    groups: int = Field(default=1, ge=1, le=MAX_ENTRANTS, strict=True, description="Groups played apart.")
    advance: int | None = Field(
        default=None, ge=1, le=MAX_ENTRANTS, strict=True, description="How many of each group go on."
    )
    until: UntilConfig | None = Field(default=None, description="The stopping rule of the stage.")
    settle: int | None = Field(
        default=None, ge=1, le=MAX_ENTRANTS, strict=True, description="Settle only the top this many."
    )
    reseed: bool = Field(default=False, strict=True, description=RESEED)

    @field_validator("format")
    @classmethod
    def _format_known(cls, value: str) -> str:
        return _known_format(value)

    def rules(self) -> StageRules:
        return StageRules(
            name=self.name,
            format=self.format,
            rounds=self.rounds,
            groups=self.groups,
            advance=self.advance,
            until=None if self.until is None else self.until.rule(),
            settle=self.settle,
            reseed=self.reseed,
        )


def _known_format(value: str) -> str:
    if value not in FORMATS:
        raise ValueError(f"unknown format {value!r}; known formats: {', '.join(sorted(FORMATS))}")
    return value


class Entrant(StrictModel):
    """One bot of the tournament: a command the referee launches, an address it connects to, or a
    trusted Python bot class it calls in its own process (``transport: inprocess``)."""

    name: str = Field(strict=True, description="Unique name, used in standings, logs and the database.")
    transport: Literal["grpc", "inprocess"] = Field(
        default="grpc",
        description="grpc: the bot is a server (launched by command, or at address); inprocess: the "
        "Python class in bot is called in the referee's process, unsandboxed (one's own code only).",
    )
    bot: str | None = Field(
        default=None,
        strict=True,
        description="module:Class of a Python bot (a subclass of sdk.bot.Bot). Only with "
        "transport: inprocess.",
    )
    command: str | None = Field(
        default=None,
        strict=True,
        description="Shell-style command that starts the bot; it gets its address in SMTOURNEY_ADDRESS "
        "and in place of {address}, and a TCP port it may listen on instead in SMTOURNEY_PORT and {port}.",
    )
    address: str | None = Field(
        default=None, strict=True, description="host:port of a bot that is already running."
    )
    env: dict[str, str] = Field(
        default_factory=dict,
        strict=True,
        description="Extra environment variables of the launched process (with command) or nothing.",
    )
    tls: TlsConfig | None = Field(
        default=None,
        description="TLS towards the address: true (system roots), false, or a mapping with "
        "ca_file and server_name. Only with address.",
    )
    token: str | None = Field(
        default=None,
        strict=True,
        min_length=1,
        description="Bearer token sent to the bot with every call. Only with address.",
    )
    fresh_process: bool | None = Field(
        default=None,
        strict=True,
        description="true: launch a new process of this bot for every match; false: keep one between "
        "matches; unset: as the bracket's fresh_process says. Only with command.",
    )
    sandbox: bool | None = Field(
        default=None, strict=True, description="Run the command in the sandbox; default: the bracket's."
    )
    program_dir: Path | None = Field(
        default=None,
        description="Folder the sandboxed bot may read, relative to the bracket's folder; "
        "default: the folder of the command's script or module.",
    )
    candidate: bool = Field(
        default=False,
        strict=True,
        description="In a gauntlet, an entrant that plays the field (the entrants not marked).",
    )

    @field_validator("name")
    @classmethod
    def _name_usable(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("entrant name must not be empty")
        return _checked(value, name_problem(value))

    @field_validator("command")
    @classmethod
    def _command_runnable(cls, value: str | None) -> str | None:
        return None if value is None else _checked(value, command_problem(value))

    @field_validator("bot")
    @classmethod
    def _bot_class_loads(cls, value: str | None) -> str | None:
        if value is not None:
            load_bot_class(value)  # its BotClassError is the field's error
        return value

    @field_validator("address")
    @classmethod
    def _address_form(cls, value: str | None) -> str | None:
        return None if value is None else _checked(value, address_problem(value))

    @field_validator("env")
    @classmethod
    def _env_usable(cls, value: dict[str, str]) -> dict[str, str]:
        problem = env_problem(value)
        if problem is not None:
            raise FieldError(problem[1], (problem[0],))
        return value

    @field_validator("program_dir")
    @classmethod
    def _program_dir_exists(cls, value: Path | None, info: ValidationInfo) -> Path | None:
        if value is None:
            return None
        path = resolve_path(value, info).resolve()
        if not path.is_dir():
            raise ValueError(f"not a folder: {path}")
        return path

    @field_validator("token")
    @classmethod
    def _token_sendable(cls, value: str | None) -> str | None:
        return None if value is None else _checked(value, header_value_problem(value, "a token"))

    @field_validator("tls", mode="before")
    @classmethod
    def _tls_shorthand(cls, value: object) -> object:
        """``true`` means TLS with the system roots, ``false`` no TLS."""
        if value is True:
            return {}
        if value is False or value is None:
            return None
        if isinstance(value, dict | TlsConfig):
            return value
        raise ValueError(
            f"tls must be true, false or a mapping with ca_file and server_name, got {show(value)}"
        )

    @model_validator(mode="after")
    def _one_way_to_reach(self) -> Self:
        if self.transport == "inprocess":
            return self._in_process_only()
        if self.bot is not None:
            raise FieldError("bot applies only to transport: inprocess (a Python bot class)", ("bot",))
        if self.command is not None and self.address is not None:
            raise FieldError("give either command or address, not both", ("address",))
        if self.command is None and self.address is None:
            raise ValueError(
                f"entrant {self.name!r} needs a command (to launch the bot) "
                "or an address (to reach a running bot)"
            )
        if self.command is None and (self.sandbox is not None or self.program_dir is not None):
            field = "sandbox" if self.sandbox is not None else "program_dir"
            raise FieldError(f"{field} applies only to a launched bot (command), not to an address", (field,))
        if self.command is not None:
            if self.tls is not None:
                raise FieldError("tls applies only to a bot reached by address, not to a command", ("tls",))
            if self.token is not None:
                raise FieldError(
                    "token applies only to a bot reached by address, not to a command", ("token",)
                )
        elif self.fresh_process is not None:
            raise FieldError(
                "fresh_process applies only to a bot launched by command, not to an address",
                ("fresh_process",),
            )
        return self

    def _in_process_only(self) -> Self:
        """An in-process bot is a class, not a process: nothing to launch, reach or sandbox."""
        if self.bot is None:
            raise ValueError(
                f"entrant {self.name!r} has transport: inprocess and needs bot: module:Class "
                "(a Python bot class)"
            )
        given = {
            "command": self.command is not None,
            "address": self.address is not None,
            "env": bool(self.env),
            "tls": self.tls is not None,
            "token": self.token is not None,
            "fresh_process": self.fresh_process is not None,
            "sandbox": self.sandbox is not None,
            "program_dir": self.program_dir is not None,
        }
        for field, present in given.items():
            if present:
                raise FieldError(
                    f"{field} does not apply to transport: inprocess (the bot is a class called in the "
                    "referee's process)",
                    (field,),
                )
        return self


class Bracket(StrictModel):
    """A whole tournament: game, table size, format, clocks and entrants.

    Validated with a bracket file in the context (as :func:`load_bracket` does),
    relative paths are resolved against its folder and ``database`` defaults to
    ``<bracket stem>.db`` beside it; without one, against the working directory
    and ``<name>.db``. Either way ``database`` is set once validated.
    """

    name: str = Field(strict=True, description="Name of the tournament, shown in standings.")
    game: str = Field(
        default="saint_malo",  # brackets from before there were other games name none
        strict=True,
        description="Registry name of an installed game plugin (`smtourney games` lists them).",
    )
    players: int = Field(
        strict=True, description="Players per match (table size), within the game's player range."
    )
    format: str = Field(
        default="round-robin",
        strict=True,
        description="Tournament format: round-robin, gauntlet, swiss or knockout.",
    )
    rounds: int = Field(
        default=1,
        ge=1,
        strict=True,
        description="How many times the whole schedule is played (a knockout: how often each table "
        "is played in every seat rotation; with until, the rounds before the rule is first checked).",
    )
    groups: int = Field(
        default=1, ge=1, le=MAX_ENTRANTS, strict=True, description="Groups played apart (with stages)."
    )
    advance: int | None = Field(
        default=None,
        ge=1,
        le=MAX_ENTRANTS,
        strict=True,
        description="A knockout: how many of each table go on (default 1).",
    )
    until: UntilConfig | None = Field(
        default=None, description="Stopping rule: add rounds until the ranking is settled."
    )
    settle: int | None = Field(
        default=None, ge=1, le=MAX_ENTRANTS, strict=True, description="Settle only the top this many."
    )
    reseed: bool = Field(default=False, strict=True, description=RESEED)
    sprt: SprtConfig | None = Field(
        default=None, description="Sequential probability ratio test of a two-entrant gauntlet."
    )
    stages: list[StageConfig] | None = Field(
        default=None,
        min_length=1,
        max_length=16,
        description="Several stages, each with its own format, rounds and settings.",
    )
    seed: int = Field(
        default=0,
        ge=0,
        le=MAX_SEED,
        strict=True,
        description="Master seed: the schedule and every match's chance outcomes follow from it.",
    )
    time_control: TimeControlField
    strikes: StrikesField = 3
    workers: int = Field(
        default=1, ge=1, le=MAX_WORKERS, strict=True, description="Matches played at the same time."
    )
    executor: str = Field(
        default="local",
        strict=True,
        description="Where matches are played: local (worker processes on this machine) or ray "
        "(Ray actors, on a cluster with `smtourney run --ray-address`).",
    )
    database: Path | None = Field(
        default=None,
        description="SQLite file of the tournament, relative to the bracket's folder; "
        "default <bracket stem>.db beside the bracket.",
    )
    params: dict[str, Any] = Field(
        default_factory=dict,
        strict=True,
        description="Game parameters (rules variants); normalized by the game plugin, defaults filled in.",
    )
    duplicate: bool = Field(
        default=False,
        strict=True,
        description="Seat rotations of one table share the chance stream (duplicate-bridge style).",
    )
    max_tables: int = Field(
        default=500,
        ge=1,
        le=MAX_MATCHES,
        strict=True,
        description="Above this many tables per round for every players-subset of the entrants, "
        "a balanced design is played instead.",
    )
    startup_timeout_s: StartupTimeoutField = 20.0
    limits: LimitsField
    fresh_process: bool = Field(
        default=False,
        strict=True,
        description="Launch a new process of every launched bot for every match, rather than keep "
        "each one up between the matches a worker plays.",
    )
    sandbox: bool = Field(
        default=True,
        strict=True,
        description="Run launched bots in the sandbox (no network, nothing of the file system but their "
        "program); an entrant's own sandbox setting wins.",
    )
    entrants: list[Entrant] = Field(
        min_length=2,
        max_length=MAX_ENTRANTS,
        description="The bots, at least two, in a fixed order (seats and ties follow it).",
    )

    @field_validator("name")
    @classmethod
    def _name_not_blank(cls, value: str) -> str:
        return usable_name(value, "tournament")

    @field_validator("database")
    @classmethod
    def _database_path(cls, value: Path | None) -> Path | None:
        return path_without_nul(value)

    @field_validator("game")
    @classmethod
    def _game_installed(cls, value: str) -> str:
        return installed_game(value)

    @field_validator("executor")
    @classmethod
    def _executor_known(cls, value: str) -> str:
        if value not in EXECUTORS:
            raise ValueError(f"unknown executor {value!r}; known executors: {', '.join(EXECUTORS)}")
        return value

    @field_validator("format")
    @classmethod
    def _format_known(cls, value: str) -> str:
        return _known_format(value)

    @field_validator("stages")
    @classmethod
    def _stage_names_unique(cls, value: list[StageConfig] | None) -> list[StageConfig] | None:
        first: dict[str, int] = {}
        for index, stage in enumerate(value or []):
            if stage.name in first:
                raise FieldError(
                    f"duplicate stage name {stage.name!r} (also stages[{first[stage.name]}])", (index, "name")
                )
            first[stage.name] = index
        return value

    @field_validator("entrants")
    @classmethod
    def _names_unique(cls, value: list[Entrant]) -> list[Entrant]:
        first: dict[str, int] = {}
        for index, entrant in enumerate(value):
            if entrant.name in first:
                raise FieldError(
                    f"duplicate entrant name {entrant.name!r} (also entrants[{first[entrant.name]}])",
                    (index, "name"),
                )
            first[entrant.name] = index
        return value

    @model_validator(mode="after")
    def _fits_the_game(self, info: ValidationInfo) -> Self:
        """Checks that need several fields: table size against game and entrants, params, database."""
        plugin = get_game(self.game)
        low, high = plugin.min_players, plugin.max_players
        if not low <= self.players <= high:
            raise FieldError(
                f"{self.game} is played by {low} to {high} players, got {self.players}", ("players",)
            )
        if len(self.entrants) < self.players:
            raise FieldError(
                f"{len(self.entrants)} entrants cannot fill a table of {self.players} players; "
                f"add entrants or lower players",
                ("entrants",),
            )
        self._check_plan()
        for index, entrant in enumerate(self.entrants):
            if entrant.bot is not None:
                problem = bot_class_problem(load_bot_class(entrant.bot), plugin)
                if problem is not None:
                    raise FieldError(problem, ("entrants", index, "bot"))
            if self.sandboxed(entrant) and entrant.command is not None and not sandbox_available():
                raise FieldError(
                    "bubblewrap (bwrap) is not installed, and launched bots run in its sandbox: install "
                    "the package bubblewrap (apt-get install bubblewrap), or set sandbox: false",
                    ("entrants", index, "command"),
                )
        self.params = normalized_params(plugin, self.players, self.params)
        source = source_file(info)
        default = Path(f"{self.name if source is None else source.stem}.db")
        self.database = resolve_path(default if self.database is None else self.database, info)
        return self

    def _check_plan(self) -> None:
        """Refuse formats and stages that cannot be played, and, with its size, a schedule too
        large to build or to play."""
        staged = self.stages is not None
        if staged:
            given = sorted(
                self.model_fields_set & {"format", "rounds", "groups", "advance", "until", "settle", "reseed"}
            )
            if given:
                raise FieldError(f"with stages, give {given[0]} in each stage instead", (given[0],))
            if self.sprt is not None:
                raise FieldError("sprt is for a bracket of one gauntlet, without stages", ("sprt",))
        plan = self.plan()
        problem = plan_problem(plan, staged)
        if problem is not None:
            raise FieldError(problem.message, problem.loc)
        rounds, per_round, size = plan_size(plan)
        if size > MAX_MATCHES:
            field = "stages" if staged else "until" if self.until else "sprt" if self.sprt else "rounds"
            raise FieldError(
                f"the schedule would have {size:,} matches ({rounds:,} rounds of {per_round:,}); "
                f"at most {MAX_MATCHES:,} are played in one tournament",
                (field,) if per_round <= MAX_MATCHES else ("entrants",),
            )

    def plan(self) -> Plan:
        """What decides the schedule, as the progression takes it."""
        if self.stages is not None:
            stages = tuple(stage.rules() for stage in self.stages)
        else:
            stages = (
                StageRules(
                    name="",
                    format=self.format,
                    rounds=self.rounds,
                    groups=self.groups,
                    advance=self.advance,
                    until=None if self.until is None else self.until.rule(),
                    settle=self.settle,
                    sprt=None if self.sprt is None else self.sprt.rule(),
                    reseed=self.reseed,
                ),
            )
        return Plan(
            names=tuple(e.name for e in self.entrants),
            players=self.players,
            seed=self.seed,
            duplicate=self.duplicate,
            max_tables=self.max_tables,
            candidates=frozenset(i for i, e in enumerate(self.entrants) if e.candidate),
            stages=stages,
        )

    def sandboxed(self, entrant: Entrant) -> bool:
        """Whether ``entrant``'s bot runs in the sandbox: its own setting, else the bracket's."""
        return self.sandbox if entrant.sandbox is None else entrant.sandbox

    @property
    def database_path(self) -> Path:
        """``database`` as a plain ``Path``: it is always set once validated."""
        assert self.database is not None
        return self.database

    def seat_specs(self) -> list[SeatSpec]:
        """The entrants as the referee's seat specs, in entrant order."""
        return [
            SeatSpec(
                name=entrant.name,
                command=entrant.command,
                address=entrant.address,
                bot_class=entrant.bot,
                env=dict(entrant.env),
                tls=None if entrant.tls is None else Tls(entrant.tls.ca_file, entrant.tls.server_name),
                token=entrant.token,
                fresh_process=self.fresh_process if entrant.fresh_process is None else entrant.fresh_process,
                sandbox=self.sandboxed(entrant),
                program_dir=entrant.program_dir,
            )
            for entrant in self.entrants
        ]

    def referee_config(self) -> RefereeConfig:
        """Clock, strikes, start-up timeout and limits as the referee takes them."""
        return referee_config(self.time_control, self.strikes, self.startup_timeout_s, self.limits)

    def fingerprint(self) -> str:
        """SHA-256 hex of all that decides the schedule and the matches.

        A resumed run compares it with the database's, so a changed bracket cannot
        silently mix two tournaments. Workers, database, limits, fresh processes, the executor and how
        bots are reached are left out: they may change between runs without changing a result.
        """
        payload = {
            "fingerprint": FINGERPRINT_VERSION,
            "name": self.name,
            "game": self.game,
            "players": self.players,
            "format": self.format,
            "rounds": self.rounds,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "max_tables": self.max_tables,
            "params": self.params,
            "time_control": {
                "decision_ms": self.time_control.decision_ms,
                "bank_ms": self.time_control.bank_ms,
            },
            "strikes": self.strikes,
            "entrants": [entrant.name for entrant in self.entrants],
        }
        # Added only when given, so that brackets written before them keep their fingerprint.
        extra = {
            "groups": self.groups if self.groups != 1 else None,
            "advance": self.advance,
            "until": None if self.until is None else self.until.model_dump(),
            "settle": self.settle,
            "sprt": None if self.sprt is None else self.sprt.model_dump(),
            "stages": None
            if self.stages is None
            else [stage.model_dump(exclude=None if stage.reseed else {"reseed"}) for stage in self.stages],
            "candidates": [e.name for e in self.entrants if e.candidate] or None,
            # A knockout's tree: brackets of the knockout before the fixed tree played other tables.
            "knockout": next(
                (
                    "reseeded" if rules.reseed else "fixed tree"
                    for rules in self.plan().stages
                    if rules.format == "knockout"
                ),
                None,
            ),
        }
        payload.update({key: value for key, value in extra.items() if value is not None})
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _checked(value: str, problem: str | None) -> str:
    """``value``, or the validation error ``problem`` when there is one."""
    if problem is not None:
        raise ValueError(problem)
    return value


# --- the loader ------------------------------------------------------------------------------------


def load_bracket(path: Path) -> Bracket:
    """The bracket in ``path``; the first problem found is raised as a :class:`BracketError`."""
    path = Path(path)
    return load_model(path, Bracket, {CONTEXT_FILE: path}, "bracket")
