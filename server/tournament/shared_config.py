"""What a bracket file and a ladder file share: the strict model, the match rules, the checks.

A bot plays a ladder match under exactly the rules it would meet in a bracket, so the clock, the
strikes, the start-up timeout and the resource limits are declared once, here, with the checks of
names, games and paths both files make; :mod:`.bracket` and :mod:`server.ladder.config` build on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo

from sdk.games.registry import get_game
from server.bounds import (
    MAX_BANK_MS,
    MAX_CPU_SECONDS,
    MAX_DECISION_MS,
    MAX_MEMORY_MB,
    MAX_STARTUP_S,
    MAX_STRIKES,
    MIN_CPU_SECONDS,
    MIN_MEMORY_MB,
    MIN_STARTUP_S,
)
from server.launcher import Limits
from server.referee import RefereeConfig, TimeControl
from server.sandbox import SandboxLimits

__all__ = [
    "CONTEXT_FILE",
    "MAX_TOURNAMENT_NAME_CHARS",
    "LimitsConfig",
    "LimitsField",
    "StartupTimeoutField",
    "StrictModel",
    "StrikesField",
    "TimeControlConfig",
    "TimeControlField",
    "installed_game",
    "path_without_nul",
    "referee_config",
    "resolve_path",
    "source_file",
    "usable_name",
]

MAX_TOURNAMENT_NAME_CHARS = 200
"""A tournament's name heads every table and progress line."""
CONTEXT_FILE = "bracket_file"
"""Validation-context key holding the file read (bracket or ladder), for relative paths and the default
database."""


class StrictModel(BaseModel):
    """Every model of a bracket or ladder file rejects unknown keys: a misspelt key must not be
    ignored silently."""

    model_config = ConfigDict(extra="forbid")


class TimeControlConfig(StrictModel):
    """The chess clock of every match."""

    decision_ms: int = Field(
        default=1000,
        ge=1,
        le=MAX_DECISION_MS,
        strict=True,
        description="Time a bot has for each decision, in milliseconds.",
    )
    bank_ms: int = Field(
        default=10_000,
        ge=0,
        le=MAX_BANK_MS,
        strict=True,
        description="Extra time per bot per match, spent when a decision overruns decision_ms.",
    )


class LimitsConfig(StrictModel):
    """Resource limits of each launched bot process (not of bots reached by address)."""

    memory_mb: int | None = Field(
        default=2048,
        ge=MIN_MEMORY_MB,
        le=MAX_MEMORY_MB,
        strict=True,
        description="Address-space limit in MiB; null for none.",
    )
    cpu_seconds: int | None = Field(
        default=None,
        ge=MIN_CPU_SECONDS,
        le=MAX_CPU_SECONDS,
        strict=True,
        description="CPU-time limit in seconds per process; null for none.",
    )
    processes: int = Field(
        default=64, ge=8, le=4096, strict=True, description="Processes and threads of a sandboxed bot."
    )
    tmp_mb: int = Field(
        default=64, ge=1, le=65536, strict=True, description="Size of a sandboxed bot's /tmp."
    )


TimeControlField = Annotated[
    TimeControlConfig, Field(default_factory=TimeControlConfig, description="The clock of every match.")
]
StrikesField = Annotated[
    int,
    Field(
        ge=1,
        le=MAX_STRIKES,
        strict=True,
        description="Strikes (late, failed or illegal replies) after which a bot forfeits the match.",
    ),
]
StartupTimeoutField = Annotated[
    float,
    Field(
        ge=MIN_STARTUP_S,
        le=MAX_STARTUP_S,
        strict=True,
        allow_inf_nan=False,
        description="Seconds a launched bot has to become healthy.",
    ),
]
LimitsField = Annotated[
    LimitsConfig,
    Field(default_factory=LimitsConfig, description="Resource limits of each launched bot process."),
]
"""The match rules a bracket and a ladder share, declared once."""


def usable_name(value: str, kind: str) -> str:
    """The name of a tournament or a ladder heads every table and progress line: not blank, not long."""
    if not value.strip():
        raise ValueError(f"{kind} name must not be empty")
    if len(value) > MAX_TOURNAMENT_NAME_CHARS:
        raise ValueError(
            f"a {kind} name may have at most {MAX_TOURNAMENT_NAME_CHARS} characters, got {len(value)}"
        )
    return value


def installed_game(value: str) -> str:
    """``value`` if a game of that name is installed; else the registry's message as the error."""
    try:
        get_game(value)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    return value


def path_without_nul(value: Path | None) -> Path | None:
    """A path from YAML may hold any character but the one no file system takes."""
    if value is not None and "\0" in str(value):
        raise ValueError("a path cannot contain a NUL character")
    return value


def referee_config(
    time_control: TimeControlConfig, strikes: int, startup_timeout_s: float, limits: LimitsConfig
) -> RefereeConfig:
    """A file's clock, strikes, start-up timeout and limits as the referee takes them."""
    return RefereeConfig(
        time_control=TimeControl(time_control.decision_ms, time_control.bank_ms),
        strikes_to_forfeit=strikes,
        startup_timeout_s=startup_timeout_s,
        limits=Limits(
            limits.memory_mb,
            limits.cpu_seconds,
            SandboxLimits(limits.processes, limits.tmp_mb),
        ),
    )


def source_file(info: ValidationInfo) -> Path | None:
    """The file being validated, when the context names one."""
    context = info.context
    if isinstance(context, Mapping):
        source = context.get(CONTEXT_FILE)
        if isinstance(source, Path):
            return source
    return None


def resolve_path(path: Path, info: ValidationInfo) -> Path:
    """``path`` with ``~`` expanded, relative to the folder of the file read, when there is one."""
    path = path.expanduser()
    source = source_file(info)
    if source is None or path.is_absolute():
        return path
    return source.absolute().parent / path
