"""Knockout: tables of ``players``; the best ``advance`` of each table go on until one table
is left, the final.

The bracket is a fixed tree of whole tables, as in a standard bracket: every level but the first
is full, so its size is the final's times (``players`` / ``advance``) per level above it (with
tables of two, a power of two). When the entrants do not fill the first level, the best seeds
have a bye: each bye table holds ``advance`` of them, who go on without playing. The other
entrants are dealt to the first level's tables in snake order (seeds 1..t to tables 1..t, seeds
t+1..2t back from table t to 1, and so on). Each table feeds the table of the next level where
its best seed would sit if favourites won, so seeds 1 and 2 can only meet in the final (with
tables of two: 1 v 16, 8 v 9, ... in a bracket of 16). With ``reseed``, the entrants who go on
are seeded again after every level instead (by their place at their table, then their earlier
seed, byes first) and dealt to the next level in snake order.

Each table plays ``rounds`` times in every seat rotation. At a table, entrants are ordered by the
sum of their ranks (fewest first), then their total score, then a draw seeded by the
tournament's seed, so every table, the final included, is settled.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...seeds import derive_seed
from .base import Format, PlayedRound, RoundContext, Table


@dataclass(frozen=True, slots=True)
class Shape:
    """The bracket's slots level by level, and how many of the best seeds skip the first level."""

    slots: tuple[int, ...]
    """Seats at each level, the first level first and the final (``players``) last."""
    byes: int

    def tables(self, level: int, players: int) -> int:
        """Tables of ``level`` (1-based), bye tables included."""
        return self.slots[level - 1] // players


def shape(entrants: int, players: int, advance: int) -> Shape:
    """The smallest bracket of whole tables ``entrants`` fill with byes in the first level only;
    ValueError when there is none."""
    found = _smallest(entrants, players, advance)
    if found is None:
        raise ValueError(
            f"{entrants} entrants at tables of {players} with {advance} going on cannot fill a bracket "
            f"of whole tables (byes only in the first level, {advance} to a bye table); "
            f"{_fitting(entrants, players, advance)}"
        )
    return found


def _smallest(entrants: int, players: int, advance: int) -> Shape | None:
    sizes = [players]
    while sizes[-1] < entrants and players % advance == 0 and advance < players:
        sizes.append(sizes[-1] * players // advance)
    for size in sizes:
        # ``playing`` full tables and the rest bye tables of ``advance`` each fill the first level
        # and send exactly the next level's seats on.
        playing, left = divmod(entrants - size * advance // players, players - advance)
        if size >= entrants and left == 0 and 0 <= playing <= size // players:
            slots = [size]
            while slots[-1] > players:
                slots.append(slots[-1] * advance // players)
            return Shape(tuple(slots), entrants - playing * players)
    return None


def _fitting(entrants: int, players: int, advance: int) -> str:
    """A hint naming entrant counts that fit, near ``entrants``."""
    fits = [count for count in range(players, 129) if _smallest(count, players, advance) is not None]
    near = sorted(fits, key=lambda c: (abs(c - entrants), c))[:4]
    if not near:
        return "change the players or advance"
    return f"change the entrants (e.g. {', '.join(map(str, sorted(near)))}), players or advance"


def levels(entrants: int, players: int, advance: int) -> list[int]:
    """Entrants at each level, the final last; ValueError when the bracket cannot be filled."""
    return [entrants, *shape(entrants, players, advance).slots[1:]]


def snake(index: int, tables: int) -> int:
    """The table dealt the ``index``-th (0-based) entrant in snake order."""
    lap, pos = divmod(index, tables)
    return pos if lap % 2 == 0 else tables - 1 - pos


def deal(seeded: tuple[int, ...], tables: int) -> list[Table]:
    """``seeded`` dealt to ``tables`` tables in snake order."""
    members: list[list[int]] = [[] for _ in range(tables)]
    for i, entrant in enumerate(seeded):
        members[snake(i, tables)].append(entrant)
    return [tuple(table) for table in members]


def table_order(table: Table, played: PlayedRound, seed: int, level: int, number: int) -> list[int]:
    """The members of a played table, best first."""
    rank_sum = dict.fromkeys(table, 0)
    score: dict[int, float] = dict.fromkeys(table, 0)
    for result in played.results:
        if set(result.entrants) != set(table):
            continue
        for entrant, rank, points in zip(result.entrants, result.ranks, result.scores, strict=True):
            rank_sum[entrant] += rank
            score[entrant] += points
    return sorted(table, key=lambda e: (rank_sum[e], -score[e], derive_seed(seed, "tie", level, number, e)))


@dataclass(frozen=True, slots=True)
class BracketTable:
    """One table of the bracket: who sits at it and, once played, their order."""

    members: Table
    bye: bool
    """Its members go on without playing."""
    order: Table | None
    """Its members best first once played (a bye table: its members); None until then."""
    played: int | None
    """Its index among the tables its level plays (None for a bye table)."""


@dataclass(frozen=True, slots=True)
class Tree:
    """The bracket as far as it is known: every level reached, a table list each."""

    shape: Shape
    players: int
    advance: int
    seeds: tuple[int, ...]
    """The entrants in seed order."""
    levels: tuple[tuple[BracketTable, ...], ...]
    reseed: bool

    def drawing_order(self, level: int) -> list[int]:
        """The tables of ``level`` (1-based) in the order a drawing lists them: each table of the
        next level beside the tables that feed it (their own order with ``reseed``)."""
        count = self.shape.tables(level, self.players)
        if self.reseed:
            return list(range(count))
        order = [0]
        for above in range(len(self.shape.slots) - 1, level - 1, -1):
            tables = self.shape.tables(above, self.players)
            order = [
                j
                for m in order
                for j in range(tables)
                if snake(j, self.shape.tables(above + 1, self.players)) == m
            ]
        return order

    @property
    def finished(self) -> bool:
        """Whether the final has been played."""
        return len(self.levels) == len(self.shape.slots) and self.levels[-1][0].order is not None

    def to_play(self) -> list[Table] | None:
        """The tables of the level to play next; None once the final is played."""
        if self.finished:
            return None
        return [t.members for t in self.levels[-1] if not t.bye]


def tree(ctx: RoundContext) -> Tree:
    """The bracket of ``ctx``'s pool over the levels played in ``ctx.history``."""
    players, advance = ctx.players, ctx.advance
    the_shape = shape(len(ctx.pool), players, advance)
    byes = ctx.pool[: the_shape.byes]
    bye_tables = the_shape.byes // advance
    members = [
        *deal(byes, bye_tables),
        *deal(ctx.pool[the_shape.byes :], the_shape.tables(1, players) - bye_tables),
    ]
    level_seed = {e: i for i, e in enumerate(ctx.pool)}
    found: list[tuple[BracketTable, ...]] = []
    for level in range(1, len(the_shape.slots) + 1):
        played = ctx.history[level - 1] if level <= len(ctx.history) else None
        tables: list[BracketTable] = []
        for number, table in enumerate(members):
            bye = level == 1 and number < bye_tables
            index = None if bye else number - (bye_tables if level == 1 else 0)
            order: Table | None = table if bye else None
            if played is not None and index is not None:
                order = tuple(table_order(table, played, ctx.seed, level, index))
            tables.append(BracketTable(table, bye, order, index))
        found.append(tuple(tables))
        if played is None or level == len(the_shape.slots):
            break
        count = the_shape.tables(level + 1, players)
        members, level_seed = _next_level(tables, count, advance, ctx.reseed, level_seed)
    return Tree(the_shape, players, advance, ctx.pool, tuple(found), ctx.reseed)


def _next_level(
    tables: list[BracketTable], count: int, advance: int, reseed: bool, level_seed: dict[int, int]
) -> tuple[list[Table], dict[int, int]]:
    """The next level's tables and seeds, from a level whose every table is settled
    (``level_seed``: each entrant's seed in it, 0 the best)."""
    if reseed:
        going_on = sorted(
            (place, level_seed[e], e)
            for t in tables
            if t.order is not None
            for place, e in enumerate(t.order[:advance])
        )
        seeded = tuple(e for _, _, e in going_on)
        return deal(seeded, count), {e: i for i, e in enumerate(seeded)}
    nxt: list[list[int]] = [[] for _ in range(count)]
    for number, t in enumerate(tables):
        assert t.order is not None
        # Table ``number``'s best seed is seed number + 1 of its level: it goes where that seed sits.
        nxt[snake(number, count)].extend(t.order[:advance])
    return [tuple(sorted(t, key=level_seed.__getitem__)) for t in nxt], level_seed


def _tables(ctx: RoundContext) -> list[Table] | None:
    return tree(ctx).to_play()


KNOCKOUT = Format(_tables, adaptive=True, ends_itself=True)
