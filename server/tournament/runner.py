"""Play a tournament: schedule it, play what the database does not hold yet on an executor
(local worker processes or Ray actors), store each finished match, then the rating history.

The database is the source of truth: a match is stored whole in one
transaction, so stopping at any moment loses at most the matches in flight,
and running the same bracket again plays only what is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from server.record import MatchRecord
from server.store.location import DatabaseUrl, Location
from server.store.models import Tournament
from server.store.repository import Placement, Store

from .bracket import Bracket
from .executor import ExecutorChoice, ExecutorError, ReplayCallback, start_executor
from .jobs import JobResult, MatchJob
from .ratings import rate
from .schedule import ScheduledMatch, make_schedule


class TournamentError(Exception):
    """The tournament cannot run (another tournament in the database, a referee failure, a dead worker)."""


@dataclass(frozen=True, slots=True)
class Progress:
    """Handed to the progress callback after each stored match."""

    done: int
    total: int
    match: ScheduledMatch
    record: MatchRecord


ProgressCallback = Callable[[Progress], None]


def schedule_of(bracket: Bracket) -> list[ScheduledMatch]:
    return make_schedule(
        len(bracket.entrants),
        bracket.players,
        rounds=bracket.rounds,
        seed=bracket.seed,
        duplicate=bracket.duplicate,
        max_tables=bracket.max_tables,
        format=bracket.format,
    )


def open_tournament(store: Store, bracket: Bracket) -> Tournament:
    """The bracket's tournament in ``store``: created if new, checked if resumed."""
    existing = store.tournament(bracket.name)
    if existing is None:
        return store.create_tournament(
            name=bracket.name,
            game=bracket.game,
            fingerprint=bracket.fingerprint(),
            # Secrets (tokens, environment values) stay out of the database.
            bracket=bracket.model_dump(
                mode="json",
                exclude={
                    "database": True,
                    "workers": True,
                    "executor": True,
                    "entrants": {"__all__": {"token", "env"}},
                },
            ),
            seed=bracket.seed,
            # How each entrant is reached; secrets (tokens, env values) are not stored.
            entrants=[
                (e.name, {"command": e.command, "address": e.address, "tls": bool(e.tls)})
                for e in bracket.entrants
            ],
        )
    if existing.fingerprint != bracket.fingerprint():
        raise TournamentError(
            f"the database already holds a tournament named {bracket.name!r} played with a different "
            "bracket (rules, seed, entrants, schedule or time control changed); nothing was played. "
            "Use another --db, or rename the tournament."
        )
    return existing


def log_dir_of(location: Location) -> Path:
    """Where bot and worker output goes: ``<db stem>-logs`` beside a SQLite file, or
    ``<database name>-logs`` in the working folder for PostgreSQL (on every node, the same path)."""
    if isinstance(location, DatabaseUrl):
        return Path(f"{location.name}-logs").absolute()
    return location.parent / f"{location.stem}-logs"


def run_tournament(
    bracket: Bracket,
    db_path: Location,
    *,
    workers: int,
    executor: ExecutorChoice | None = None,
    on_progress: ProgressCallback | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_replay: ReplayCallback | None = None,
    withdrawn: Mapping[str, str] | None = None,
) -> Tournament:
    """Play every scheduled match the database lacks; returns the tournament row.

    ``on_start(already_done, total)`` is called once before play; ``executor`` defaults to the
    bracket's. ``withdrawn`` maps entrants that failed the pre-flight check to why: they are not
    started, and forfeit every seat they have.
    """
    schedule = schedule_of(bracket)
    choice = executor or ExecutorChoice("ray" if bracket.executor == "ray" else "local")
    store = Store.open(db_path, create=True)
    try:
        tournament = open_tournament(store, bracket)
        assert tournament.id is not None
        finished = store.finished_match_ids(tournament.id)
        todo = [m for m in schedule if m.match_id not in finished]
        if on_start is not None:
            on_start(len(schedule) - len(todo), len(schedule))
        if todo:
            played = _Played(store, tournament.id, len(schedule), on_progress)
            _play(bracket, played, todo, log_dir_of(db_path), choice, workers, on_replay, withdrawn or {})
        _, history = rate(len(bracket.entrants), store.results(tournament.id))
        store.replace_rating_history(
            tournament.id, [(s.match_index, s.entrant, s.mu, s.sigma) for s in history]
        )
        return tournament
    finally:
        store.close()


@dataclass
class _Played:
    """Where finished matches go: the store, then the progress callback."""

    store: Store
    tournament_id: int
    total: int
    on_progress: ProgressCallback | None
    done: int = 0


def _play(
    bracket: Bracket,
    played: _Played,
    todo: list[ScheduledMatch],
    log_dir: Path,
    choice: ExecutorChoice,
    workers: int,
    on_replay: ReplayCallback | None,
    withdrawn: Mapping[str, str],
) -> None:
    specs = [replace(spec, withdrawn=withdrawn.get(spec.name)) for spec in bracket.seat_specs()]
    config = bracket.referee_config()
    by_index = {m.index: m for m in todo}
    played.done = played.total - len(todo)
    try:
        executor = start_executor(choice, min(workers, len(todo)), log_dir, on_replay)
    except ExecutorError as exc:
        raise TournamentError(str(exc)) from None
    graceful = False
    try:
        for match in todo:
            executor.submit(
                MatchJob(
                    index=match.index,
                    game=bracket.game,
                    match_id=match.match_id,
                    seed=match.seed,
                    specs=tuple(specs[e] for e in match.seats),
                    params=bracket.params,
                    config=config,
                    log_dir=log_dir,
                )
            )
        for _ in todo:
            try:
                result = executor.next_result()
            except ExecutorError as exc:
                raise TournamentError(
                    f"{exc}; {played.done} of {played.total} matches are stored. "
                    "Run the same command again to resume."
                ) from None
            match = by_index[result.index]
            if result.record is None:
                raise TournamentError(_referee_failure(result, match.match_id, log_dir))
            _store(played, match, MatchRecord.from_json(result.record))
        graceful = True
    finally:
        executor.close(graceful=graceful)


def _store(played: _Played, match: ScheduledMatch, record: MatchRecord) -> None:
    """One transaction for the whole match, then progress."""
    placement = Placement(match.index, match.round, match.table, match.rotation)
    played.store.save_match(played.tournament_id, placement, record, match.seats)
    played.done += 1
    if played.on_progress is not None:
        played.on_progress(Progress(played.done, played.total, match, record))


def _referee_failure(result: JobResult, match_id: str, log_dir: Path) -> str:
    """One line on a referee that failed, its traceback kept in a log file the line names."""
    log = log_dir / f"{match_id}.referee-error.log"
    try:
        log.write_text(result.details, encoding="utf-8")
    except OSError:
        return f"the referee failed in match {match_id}: {result.error}"
    return f"the referee failed in match {match_id}: {result.error} (traceback in {log})"
