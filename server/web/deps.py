"""What every route is given: the catalog of the database the app serves."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request

from .catalog import Catalog
from .ladder_catalog import LadderCatalog

MAX_ROW_ID = 2**63 - 1
"""Ids are signed 64-bit integers in SQLite and PostgreSQL: a larger number names nothing, and the
database driver would fail on it (500) rather than find nothing."""

RowId = Annotated[int, Path(ge=-MAX_ROW_ID - 1, le=MAX_ROW_ID)]
"""A row's id in a path; out of range: 422."""


def _catalog(request: Request) -> Catalog:
    catalog: Catalog = request.app.state.catalog
    return catalog


CatalogDep = Annotated[Catalog, Depends(_catalog)]


def _ladder_catalog(request: Request) -> LadderCatalog:
    catalog: LadderCatalog = request.app.state.ladder_catalog
    return catalog


LadderCatalogDep = Annotated[LadderCatalog, Depends(_ladder_catalog)]
"""The catalog of the ladder in the database the app serves."""
