"""Play a tournament: schedule it, play what the database does not hold yet on an executor
(local worker processes or Ray actors), store each finished match. Ratings and their histories
are not stored: they are computed from the stored results whenever they are shown.

The database is the source of truth: a match is stored whole in one
transaction, so stopping at any moment loses at most the matches in flight,
and running the same bracket again plays only what is missing. The schedule comes
batch by batch from a :class:`~.progression.Progression`: a batch is formed from the stored
results of the batches before it, so a resumed run forms the same batches again.

A database out of reach for a while (a PostgreSQL restart) is waited for, up to
:data:`OUTAGE_LIMIT_S`, while the workers play on. A run that cannot go on (the database, the cluster)
stops with one line: the cause, how many matches are stored, and that the same command resumes it.
Cleaning up after such a failure never hides it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from server.record import MatchRecord
from server.steps_block import PackedRecord
from server.store.errors import StoreError
from server.store.live import LiveFeed
from server.store.location import DatabaseUrl, Location
from server.store.models import Tournament
from server.store.repository import Placement, Store
from server.store.retry import OutageNotice, Retry, patient

from .bracket import Bracket
from .executor import (
    Executor,
    ExecutorChoice,
    ExecutorError,
    ExecutorLostError,
    NoticeCallback,
    ReplayCallback,
)
from .executors import start_executor
from .jobs import JobResult, MatchJob
from .live_writer import LiveTarget
from .progression import Progression
from .schedule import ScheduledMatch

OUTAGE_LIMIT_S = 300.0
"""How long a run waits for its database to come back before it stops."""


class TournamentError(Exception):
    """The tournament cannot run (another tournament in the database, a referee failure, a dead worker)."""


@dataclass(frozen=True, slots=True)
class Progress:
    """Handed to the progress callback after each stored match."""

    done: int
    total: int
    """Matches scheduled so far (it grows as rounds that depend on results are formed)."""
    match: ScheduledMatch
    record: MatchRecord
    """The match's record without its steps: they reach the store as a block, never decoded here."""
    status: str
    """How settled the ranking is, with a stopping rule or an SPRT; "" otherwise."""


ProgressCallback = Callable[[Progress], None]


def schedule_of(bracket: Bracket) -> list[ScheduledMatch]:
    """The whole schedule of a bracket whose matches do not depend on results (a round robin
    or a gauntlet of fixed rounds, in one stage)."""
    progression = Progression(bracket.plan())
    schedule = progression.next_batch({}) if progression.static else None
    if schedule is None:
        raise ValueError(f"the schedule of {bracket.name!r} depends on results")
    return schedule


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
    on_verdict: Callable[[str], None] | None = None,
    withdrawn: Mapping[str, str] | None = None,
    on_notice: NoticeCallback | None = None,
) -> Tournament:
    """Play every scheduled match the database lacks; returns the tournament row.

    ``on_start(already_done, total)`` is called once before play (``total``: the matches
    scheduled so far); ``on_verdict`` gets one line per stopping rule or SPRT that stopped;
    ``executor`` defaults to the bracket's. ``withdrawn`` maps entrants that failed the pre-flight
    check to why: they are not started, and forfeit every seat they have. ``on_notice`` gets one
    line when the database goes out of reach or comes back, or when the run goes on with fewer workers.
    """
    progression = Progression(bracket.plan())
    choice = executor or ExecutorChoice("ray" if bracket.executor == "ray" else "local")
    opened = Store.open(db_path, create=True)
    # Every call made while matches are played can be repeated (a match is stored once), so each
    # waits out an outage; the notice says so once.
    retry = Retry(OutageNotice(on_notice or _silent, _RUN_WAITING), threading.Event(), OUTAGE_LIMIT_S)
    store = patient(opened, retry)
    try:
        tournament = open_tournament(opened, bracket)
        assert tournament.id is not None
        tournament_id = tournament.id
        results = {r.index: r for r in store.results(tournament.id)}
        played = _Played(store, tournament.id, 0, on_progress)
        log_dir = log_dir_of(db_path)
        feed = LiveFeed(opened.engine, opened.path)
        live = patient(feed, retry)
        live.begin_run(tournament.id, 0, len(results))
        games: Executor | None = None
        try:
            while (batch := progression.next_batch(results)) is not None:
                todo = [m for m in batch if m.index not in results]
                played.total += len(batch)
                played.status = progression.status
                live.scheduled(tournament.id, played.total)
                if games is None and todo:
                    played.done = played.total - len(todo)
                    if on_start is not None:
                        on_start(played.done, played.total)
                    games = _start(choice, min(workers, len(todo)), log_dir, played, on_replay, on_notice)
                if todo:
                    assert games is not None
                    _play(bracket, played, todo, log_dir, games, withdrawn or {})
                    results = {r.index: r for r in store.results(tournament.id)}
        except StoreError as exc:
            _wind_down(games, lambda: feed.end_run(tournament_id))
            raise _stopped(played, exc.message) from None
        except BaseException:
            _wind_down(games, lambda: feed.end_run(tournament_id))
            raise
        if games is not None:
            games.close(graceful=True)
        live.end_run(tournament.id)
        if games is None and on_start is not None:
            on_start(played.total, played.total)
        if on_verdict is not None:
            for line in progression.verdicts:
                on_verdict(line)
        return tournament
    finally:
        opened.close()


_RUN_WAITING = f"the run waits for it (at most {OUTAGE_LIMIT_S / 60:.0f} minutes) while its workers play on"


def _silent(line: str) -> None:
    """No one to tell."""


def _wind_down(games: Executor | None, end_live: Callable[[], None]) -> None:
    """Stop the workers and clear the live feed after a failure, as far as they can be: the failure
    that stopped the run is the one reported, never one met while cleaning up after it."""
    try:
        if games is not None:
            with contextlib.suppress(Exception):
                games.close(graceful=False)
    finally:
        with contextlib.suppress(StoreError):
            end_live()


def _stopped(played: _Played, why: str) -> TournamentError:
    """The one line a run ends with when it cannot go on."""
    return TournamentError(
        f"{why}; {played.done} of {played.total} matches are stored. Run the same command again to resume."
    )


@dataclass
class _Played:
    """Where finished matches go: the store, then the progress callback."""

    store: Store
    tournament_id: int
    total: int
    on_progress: ProgressCallback | None
    done: int = 0
    status: str = ""


def _start(
    choice: ExecutorChoice,
    workers: int,
    log_dir: Path,
    played: _Played,
    on_replay: ReplayCallback | None,
    on_notice: NoticeCallback | None,
) -> Executor:
    """The executor; one that could not start says why, and how to resume if it died trying."""
    try:
        return start_executor(choice, workers, log_dir, on_replay, on_notice)
    except ExecutorLostError as exc:
        raise _stopped(played, str(exc)) from None
    except ExecutorError as exc:
        raise TournamentError(str(exc)) from None


def _play(
    bracket: Bracket,
    played: _Played,
    todo: list[ScheduledMatch],
    log_dir: Path,
    games: Executor,
    withdrawn: Mapping[str, str],
) -> None:
    """Play ``todo`` and store each match as it finishes."""
    specs = [replace(spec, withdrawn=withdrawn.get(spec.name)) for spec in bracket.seat_specs()]
    config = bracket.referee_config()
    where = played.store.path
    # A worker or Ray actor may run in another folder: it is given the file by its absolute path.
    live = LiveTarget(where.absolute() if isinstance(where, Path) else where, played.tournament_id)
    by_index = {m.index: m for m in todo}
    for match in todo:
        games.submit(
            MatchJob(
                index=match.index,
                game=bracket.game,
                match_id=match.match_id,
                seed=match.seed,
                specs=tuple(specs[e] for e in match.seats),
                params=bracket.params,
                config=config,
                log_dir=log_dir,
                live=live,
            )
        )
    for _ in todo:
        try:
            result = games.next_result()
        except ExecutorError as exc:
            raise _stopped(played, str(exc)) from None
        match = by_index[result.index]
        if result.record is None:
            raise TournamentError(referee_failure(result, match.match_id, log_dir))
        _store(played, match, result.record, in_flight=result.fed)


def _store(played: _Played, match: ScheduledMatch, packed: PackedRecord, *, in_flight: bool) -> None:
    """One transaction for the whole match (its live rows removed if it has any), then progress."""
    placement = Placement(match.index, match.round, match.table, match.rotation)
    played.store.save_match(played.tournament_id, placement, packed, match.seats, in_flight=in_flight)
    played.done += 1
    if played.on_progress is not None:
        played.on_progress(Progress(played.done, played.total, match, packed.record, played.status))


def referee_failure(result: JobResult, match_id: str, log_dir: Path) -> str:
    """One line on a referee that failed, its traceback kept in a log file the line names."""
    log = log_dir / f"{match_id}.referee-error.log"
    try:
        log.write_text(result.details, encoding="utf-8")
    except OSError:
        return f"the referee failed in match {match_id}: {result.error}"
    return f"the referee failed in match {match_id}: {result.error} (traceback in {log})"
