"""What every route is given: the catalog of the database the app serves."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from .catalog import Catalog
from .ladder_catalog import LadderCatalog


def _catalog(request: Request) -> Catalog:
    catalog: Catalog = request.app.state.catalog
    return catalog


CatalogDep = Annotated[Catalog, Depends(_catalog)]


def _ladder_catalog(request: Request) -> LadderCatalog:
    catalog: LadderCatalog = request.app.state.ladder_catalog
    return catalog


LadderCatalogDep = Annotated[LadderCatalog, Depends(_ladder_catalog)]
"""The catalog of the ladder in the database the app serves."""
