"""What the Ray driver process (:mod:`.ray_driver`) tells the run (:class:`~.ray_executor.RayExecutor`).

A module of its own: the driver runs as ``__main__``, and what it sends must unpickle by a name the
run can import without loading Ray.
"""

from __future__ import annotations

from dataclasses import dataclass

from .jobs import JobResult

__all__ = ["Failed", "Finished", "Noticed", "Replayed", "Started"]


@dataclass(frozen=True, slots=True)
class Started:
    """Ray is up (or joined) and the actors are asked for."""


@dataclass(frozen=True, slots=True)
class Finished:
    result: JobResult


@dataclass(frozen=True, slots=True)
class Replayed:
    """A match is played again: its worker was lost."""

    match_id: str
    why: str


@dataclass(frozen=True, slots=True)
class Noticed:
    """One line for the user: the run goes on with fewer workers."""

    line: str


@dataclass(frozen=True, slots=True)
class Failed:
    """The Ray side cannot start or go on (one line, from :class:`ExecutorError`)."""

    why: str
