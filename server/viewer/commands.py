"""``smtourney replay`` and ``smtourney verify``: look back at stored matches."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from sdk.games.registry import get_game
from server.display import err_console, plain, print_error, visible
from server.record import MatchRecord
from server.replay import build_replay, moments
from server.resimulate import ReplayMismatchError, resimulate
from server.store.database import StoreError
from server.store.models import Tournament
from server.store.repository import Store
from server.tournament.commands import DEFAULT_DB, DbOption, TournamentOption, open_store

from .browse import browse
from .moments import ReplayText


class MatchLookupError(Exception):
    """A match or tournament the user named is not in the database."""


def _fail(message: str, code: int = 1) -> typer.Exit:
    print_error(message)
    return typer.Exit(code)


def _tournaments(store: Store, name: str | None) -> list[Tournament]:
    found = store.tournaments() if name is None else [t for t in store.tournaments() if t.name == name]
    if not found:
        raise MatchLookupError(
            f"no tournament named {name!r}" if name else "the database holds no tournament"
        )
    return found


def find_match(store: Store, match_id: str, name: str | None) -> tuple[Tournament, MatchRecord]:
    """The stored match ``match_id``, looked for in tournament ``name`` or in every one."""
    hits = []
    for tournament in _tournaments(store, name):
        assert tournament.id is not None
        record = store.load_record(tournament.id, match_id)
        if record is not None:
            hits.append((tournament, record))
    if not hits:
        where = f"tournament {name!r}" if name else "any tournament"
        raise MatchLookupError(f"no match {match_id!r} in {where} (`smtourney matches` lists them)")
    if len(hits) > 1:
        names = ", ".join(t.name for t, _ in hits)
        raise MatchLookupError(f"match {match_id!r} is in several tournaments ({names}): choose one with -t")
    return hits[0]


def replay_command(
    match_id: Annotated[str, typer.Argument(help="The match, as `smtourney matches` lists it.")],
    db: DbOption = DEFAULT_DB,
    name: TournamentOption = None,
    turn: Annotated[
        int | None, typer.Option("--turn", min=1, help="Print this turn's steps and the boards after it.")
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the whole replay as JSON (docs/replay-format.md).")
    ] = False,
    html: Annotated[
        Path | None, typer.Option("--html", help="Write the replay viewer as one self-contained HTML file.")
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option("--seat", min=0, help="Show the match as this seat saw it (default: everything)."),
    ] = None,
) -> None:
    """Step through a stored match: positions, chance, every decision, strikes and scores.

    In a terminal it is interactive (arrows step, [ and ] jump by turn, g goes to a
    turn, q quits); piped, it prints every turn.
    """
    store = open_store(db)
    try:
        tournament, record = find_match(store, match_id, name)
        positions = moments(record, seat)
    except (MatchLookupError, ValueError) as exc:
        raise _fail(f"{store.path}: {exc}") from None
    except StoreError as exc:
        raise _fail(str(exc)) from None
    except ReplayMismatchError as exc:
        mismatch = f"match {match_id} does not re-simulate, {exc} (see `smtourney verify`)"
        raise _fail(f"{store.path}: {mismatch}") from None
    finally:
        store.close()
    replay = build_replay(record, tournament=tournament.name, seat=seat, positions=positions)
    if json_output:
        json.dump(replay, sys.stdout, separators=(",", ":"))
        sys.stdout.write("\n")
        return
    if html is not None:
        from server.web.export import export_html

        try:
            html.write_text(export_html(replay), encoding="utf-8")
        except OSError as exc:
            raise _fail(f"cannot write {html}: {exc.strerror}") from None
        err_console.print(plain(f"wrote {html} ({html.stat().st_size // 1024} KiB)"))
        return
    text = ReplayText(replay, positions, get_game(record.game))
    if turn is not None:
        try:
            print(text.header() + "\n\n" + text.turn(turn))
        except ValueError as exc:
            raise _fail(str(exc)) from None
    elif sys.stdin.isatty() and sys.stdout.isatty():
        browse(text)
    else:
        print(text.header())
        for number in text.turn_numbers:
            print("\n" + text.turn(number))


def verify_command(
    match_ids: Annotated[
        list[str] | None, typer.Argument(help="Matches to check (default: every stored match).")
    ] = None,
    db: DbOption = DEFAULT_DB,
    name: TournamentOption = None,
) -> None:
    """Re-simulate stored matches with the engine: every step, roll, strike and score.

    Exits 1 at the first disagreement of any match and says exactly where it is.
    """
    store = open_store(db)
    failures = 0
    try:
        try:
            wanted = _wanted(store, match_ids or [], name)
        except MatchLookupError as exc:
            raise _fail(f"{store.path}: {exc}") from None
        except StoreError as exc:
            raise _fail(str(exc)) from None
        for tournament, match_id in wanted:
            label = visible(f"{tournament.name}/{match_id}")
            try:
                record = _load(store, tournament, match_id)
                resimulate(record)
            except (ReplayMismatchError, StoreError) as exc:
                failures += 1
                print(f"FAIL {label}: {visible(str(exc))}")
            else:
                print(f"ok   {label}: {len(record.steps)} steps, scores {record.scores}")
    finally:
        store.close()
    print(f"{len(wanted)} matches checked, {len(wanted) - failures} ok, {failures} failed")
    if failures:
        raise typer.Exit(1)


def _wanted(store: Store, match_ids: list[str], name: str | None) -> list[tuple[Tournament, str]]:
    """The (tournament, match id) pairs to verify: the named matches, or every stored one."""
    if match_ids:
        return [(find_match(store, m, name)[0], m) for m in match_ids]
    wanted = []
    for tournament in _tournaments(store, name):
        assert tournament.id is not None
        wanted += [(tournament, match.match_id) for match, _ in store.matches(tournament.id)]
    return wanted


def _load(store: Store, tournament: Tournament, match_id: str) -> MatchRecord:
    assert tournament.id is not None
    record = store.load_record(tournament.id, match_id)
    if record is None:
        raise StoreError(store.path, f"match {match_id!r} vanished while reading")
    return record
