"""Scripted positions for checking a bot: every decision kind of a game, edge cases included.

The positions come from the game's own engine through its plugin, so this module
knows no game: random play with fixed seeds (the plugin's ``random_action`` from
each request, the chance outcomes from a seeded RNG) at the smallest and largest table, from
which each kind keeps its first position, its last, and the first whose request
shows an edge a bot written in another language trips over: an integer that needs
more than 32 bits, a list of options with a single entry (a forced choice), or an
empty list; and the first where the engine allows a single answer, however the request
lists them. A position chosen for several reasons is played once, its label naming them all
(``the first position; an integer beyond 32 bits``). A plugin may offer more positions of its
own (``check_positions``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from sdk.games.plugin import DecisionContext, GamePlugin, GameState

MIN_GAMES, MAX_GAMES = 2, 8
"""Random games played at the smallest and the largest table: at least the first, and more
(up to the second) until every decision kind has turned up."""
MAX_STEPS_PER_GAME = 20_000


@dataclass(frozen=True, slots=True)
class Position:
    """A state where ``seat`` decides, why it was chosen, and that seat's decision count so far."""

    label: str
    state: GameState
    seat: int
    players: int
    decision_id: int


def edges(message: Message) -> list[str]:
    """What makes a request an edge case, read from its fields alone."""
    found: list[str] = []
    for value in _integers(message):
        if abs(value) >= 2**32:
            found.append("an integer beyond 32 bits")
            break
    for field in message.DESCRIPTOR.fields:
        if field.is_repeated and field.type != FieldDescriptor.TYPE_MESSAGE:
            listed = len(getattr(message, field.name))
            if listed <= 1:
                found.append(f"a single {field.name} {FORCED_MARK}" if listed else f"no {field.name}")
    return found


def _integers(message: Message) -> Iterator[int]:
    for field, value in message.ListFields():
        values = value if field.is_repeated else [value]
        for item in values:
            if isinstance(item, Message):
                yield from _integers(item)
            elif isinstance(item, int) and not isinstance(item, bool):
                yield item


FORCED_MARK = "(a forced choice)"
FORCED = f"a single legal answer {FORCED_MARK}"
"""A forced choice the engine shows when the request's own lists do not (options nested deeper)."""


def positions(
    plugin: GamePlugin, params: dict[str, Any] | None = None, players: int | None = None
) -> list[Position]:
    """Positions covering every decision kind of ``plugin`` and the edges its games show, at its
    least and most table sizes, or at ``players`` seats only (a bot written for one size)."""
    chosen: dict[tuple[str, str], _Found] = {}
    last: dict[str, _Found] = {}
    table = plugin.normalize_params(params or {})
    for seats in [players] if players is not None else sorted({plugin.min_players, plugin.max_players}):
        for game in range(MAX_GAMES):
            if game >= MIN_GAMES and all(
                (kind, "the first position") in chosen for kind in plugin.decisions.kinds
            ):
                break
            for kind, met, request in _play(plugin, seats, table, seed=seats * 1000 + game):
                chosen.setdefault((kind, "the first position"), met)
                shown = edges(request)
                if (
                    not any(FORCED_MARK in edge for edge in shown)
                    and len(met.position.state.legal_actions()) == 1
                ):
                    shown.append(FORCED)
                for edge in shown:
                    chosen.setdefault((kind, edge), met)
                last[kind] = met
    for kind, met in last.items():
        chosen.setdefault((kind, "a late position"), met)
    labels: dict[tuple[int, int, int], list[str]] = {}
    where: dict[tuple[int, int, int], Position] = {}
    for (_, label), met in chosen.items():
        labels.setdefault(met.key, []).append(label)
        where.setdefault(met.key, met.position)
    found = [
        Position("; ".join(labels[key]), p.state, p.seat, p.players, p.decision_id)
        for key, p in where.items()
    ]
    for label, state, seats in plugin.check_positions():
        if players is None or seats == players:
            found.append(Position(label, state, state.current_player, seats, 1))
    return found


@dataclass(frozen=True, slots=True)
class _Found:
    """A position met in random play, and where: (players, game seed, decision number)."""

    key: tuple[int, int, int]
    position: Position


def _play(
    plugin: GamePlugin, players: int, params: dict[str, Any], seed: int
) -> Iterator[tuple[str, _Found, Message]]:
    """One random game: each decision's kind, position (a copy) and request."""
    rng = random.Random(seed)
    state = plugin.new_state(players, params)
    counts = [0] * players
    for _ in range(MAX_STEPS_PER_GAME):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player
        counts[seat] += 1
        kind = plugin.decision_kind(state)
        spec = plugin.decisions[kind]
        context = DecisionContext("check", counts[seat], seat, 1000, 0)
        request = spec.encode_request(plugin.observe(state, seat), context)
        position = Position("", state.clone(), seat, players, counts[seat])
        yield kind, _Found((players, seed, sum(counts)), position), request
        state.apply(plugin.random_action(spec.decode_request(request), rng))
