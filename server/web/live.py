"""What the live pages show while a tournament runs: its progress, and each match in flight as a
spectator sees it (the plugin's ``spectator_view``: what every seat may know, nothing more).

A match in flight is read from the live feed (:mod:`server.store.live`), whose steps hold secrets:
they are applied to the engine here and only their spectator's view and words leave. Replays and
seat views of a match are served once it is stored, never before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from sdk.games.plugin import GamePlugin, GameState
from sdk.games.registry import get_game
from server.store.live import LiveFeed, LiveMatchRow
from server.store.models import LiveRun

from .catalog import Catalog, NotFoundError, UnreadableReplayError

#: Matches in flight whose position is kept between polls (each is a few engine states' worth).
KEPT_MATCHES = 64


def match_url(tournament_id: int, match_id: str) -> str:
    return f"/tournaments/{tournament_id}/matches/{quote(match_id, safe='')}"


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive times; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def estimate_seconds(run: LiveRun, done: int, now: datetime) -> float | None:
    """Time left at this run's pace so far: the matches still to store at the rate this run stored
    its own (None until it stored one). Matches scheduled later (rounds formed from results) are not
    counted, so the estimate grows when they are."""
    finished = done - run.stored_at_start
    elapsed = (now - _aware(run.started_at)).total_seconds()
    if finished <= 0 or elapsed <= 0:
        return None
    return max(0, run.total - done) * elapsed / finished


@dataclass
class _Watched:
    """A match in flight as spectators have seen it so far: its position after ``applied`` steps."""

    started_at: datetime
    plugin: GamePlugin
    state: GameState
    applied: int = 0
    moments: list[dict[str, Any]] = field(default_factory=list)

    def moment(self, step: dict[str, Any] | None) -> None:
        self.moments.append(
            {
                "index": len(self.moments),
                "turn": self.plugin.turn(self.state),
                "step": step,
                "view": self.plugin.spectator_view(self.state),
            }
        )

    def apply(self, rows: list[list[Any]]) -> None:
        """Steps ``[seq, kind, seat, source, step]`` in order; a moment after each every seat learns of."""
        for seq, kind, seat, source, data in rows:
            action = self.plugin.step_from_json(data)
            text = self.plugin.spectator_describe(self.state, action)
            self.state.apply(action)
            self.applied += 1
            if text is not None:
                self.moment(
                    {
                        "seq": seq,
                        "kind": kind,
                        "seat": seat,
                        "source": source,
                        "action": None,
                        "text": text,
                        "reply": None,
                        "latency_us": None,
                        "strike": None,
                        "asked_at": None,
                    }
                )


class Live:
    """Live progress and spectator views over the catalog's store."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.feed = LiveFeed(catalog.store.engine, catalog.store.path)
        self._standings: dict[int, tuple[int, list[dict[str, Any]]]] = {}
        self._watched: OrderedDict[tuple[int, str], _Watched] = OrderedDict()
        self._lock = threading.Lock()  # requests are served on several threads

    def running(self, tournament_id: int) -> bool:
        return self.feed.run(tournament_id) is not None

    def standings(self, tournament_id: int, done: int) -> list[dict[str, Any]]:
        """The standings over the ``done`` matches stored, worked out once per new stored match."""
        with self._lock:
            kept = self._standings.get(tournament_id)
        if kept is None or kept[0] != done:
            kept = (done, self.catalog.standings(tournament_id))
            with self._lock:
                self._standings[tournament_id] = kept
        return kept[1]

    def progress(self, tournament_id: int) -> dict[str, Any]:
        """A tournament's progress: stored of scheduled matches, matches in flight, time left, and the
        standings (provisional while the run goes)."""
        flight = self.flight(tournament_id)
        return {**flight, "standings": self.standings(tournament_id, flight["done"])}

    def flight(self, tournament_id: int) -> dict[str, Any]:
        """A tournament's progress without its standings: stored of scheduled matches, matches in
        flight and time left."""
        self.catalog.tournament(tournament_id)
        run = self.feed.run(tournament_id)
        finished = self.catalog.store.finished_match_ids(tournament_id)
        done = len(finished)
        now = datetime.now(UTC)
        # A match whose worker died after feeding it, and that another played again and stored
        # without feeding it, keeps its rows until the run ends: it is listed as stored, not in flight.
        in_flight = (
            []
            if run is None
            else [m for m in self.feed.in_flight(tournament_id) if m.match_id not in finished]
        )
        return {
            "running": run is not None,
            "done": done,
            "total": done if run is None else max(run.total, done),
            "estimate_s": None if run is None else estimate_seconds(run, done, now),
            "in_flight": [self._flight(tournament_id, row, now) for row in in_flight],
            "provisional": run is not None,
        }

    @staticmethod
    def _flight(tournament_id: int, row: LiveMatchRow, now: datetime) -> dict[str, Any]:
        return {
            "match_id": row.match_id,
            "seats": row.seats,
            "started_at": _aware(row.started_at).isoformat(),
            "running_s": round((now - _aware(row.started_at)).total_seconds(), 1),
            "steps": row.steps,
            "url": match_url(tournament_id, row.match_id) + "/live",
        }

    def match(self, tournament_id: int, match_id: str, after: int = 0) -> dict[str, Any]:
        """A match in flight as a spectator sees it, its moments from number ``after`` on; once it is
        stored, ``{"status": "done"}`` and where its replay is."""
        tournament = self.catalog.tournament(tournament_id)
        if match_id in self.catalog.store.finished_match_ids(tournament_id):
            self._watched.pop((tournament_id, match_id), None)
            return {"status": "done", "replay_url": match_url(tournament_id, match_id)}
        row = self.feed.in_flight_match(tournament_id, match_id)
        if row is None:
            raise NotFoundError(
                f"match {match_id!r} of tournament {tournament.name!r} is neither being played nor stored"
            )
        with self._lock:
            watched = self._follow(tournament_id, tournament.game, row)
            moments = watched.moments[max(0, after) :]
            steps = watched.applied
        return {
            "status": "live",
            "steps": steps,
            "moments": moments,
            "replay": self._replay(tournament.name, tournament.game, row, watched),
        }

    def _follow(self, tournament_id: int, game: str, row: LiveMatchRow) -> _Watched:
        key = (tournament_id, row.match_id)
        watched = self._watched.get(key)
        if watched is None or watched.started_at != row.started_at:
            try:
                plugin = get_game(game)
            except KeyError as exc:
                raise UnreadableReplayError(
                    f"match {row.match_id!r} cannot be shown: {exc.args[0]}"
                ) from None
            watched = _Watched(row.started_at, plugin, plugin.new_state(row.players, row.params))
            watched.moment(None)
        self._watched[key] = watched
        self._watched.move_to_end(key)
        while len(self._watched) > KEPT_MATCHES:
            self._watched.popitem(last=False)
        watched.apply(self.feed.steps(tournament_id, row.match_id, watched.applied))
        return watched

    @staticmethod
    def _replay(tournament: str, game: str, row: LiveMatchRow, watched: _Watched) -> dict[str, Any]:
        """The replay format's head for the viewer (docs/replay-format.md), as a spectator's."""
        return {
            "format": "smtourney.replay",
            "version": 2,
            "viewer_seat": None,
            "spectator": True,
            "match": {
                "id": row.match_id,
                "tournament": tournament,
                "game": game,
                "title": watched.plugin.title,
                "players": row.players,
                "params": row.params,
                "started_at": _aware(row.started_at).isoformat(),
            },
            "seats": [
                {"seat": seat, "name": name, "strikes": 0, "forfeited": False, "forfeit_reason": None}
                for seat, name in enumerate(row.seats)
            ],
        }
