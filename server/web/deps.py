"""What every route is given: the catalog of the database the app serves."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from .catalog import Catalog


def _catalog(request: Request) -> Catalog:
    catalog: Catalog = request.app.state.catalog
    return catalog


CatalogDep = Annotated[Catalog, Depends(_catalog)]
