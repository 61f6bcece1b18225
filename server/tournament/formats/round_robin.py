"""Round robin: every round plays every table of the balanced schedule of the group."""

from __future__ import annotations

from ..schedule import round_tables
from .base import Format, RoundContext, Table


def _tables(ctx: RoundContext) -> list[Table]:
    local = round_tables(
        len(ctx.pool), ctx.players, seed=ctx.seed, round=ctx.round, max_tables=ctx.max_tables
    )
    return [tuple(ctx.pool[i] for i in table) for table in local]


ROUND_ROBIN = Format(_tables, adaptive=False)
