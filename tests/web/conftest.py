"""The web app served by uvicorn on a free local port, from the shared tournament database."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, sync_playwright

from server.store.location import Location
from server.web.app import create_app


@dataclass(frozen=True)
class Reply:
    status: int
    content_type: str
    body: str

    def json(self) -> Any:
        return json.loads(self.body)


def fetch(url: str) -> Reply:
    """GET ``url``; error statuses are replies too, not exceptions."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return Reply(response.status, response.headers["content-type"], response.read().decode())
    except urllib.error.HTTPError as error:
        with error:
            return Reply(error.code, error.headers["content-type"], error.read().decode())


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two rectangles ``[left, top, right, bottom]`` share any area (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@contextmanager
def serve(db: Location, make_app: Callable[[Location], FastAPI] = create_app) -> Iterator[str]:
    """Serve ``db`` (as ``make_app`` builds the app) on 127.0.0.1 on a free port; yields the base
    URL; always stops the server."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(make_app(db), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the web app did not start"
            time.sleep(0.01)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="session")
def base_url(tournament_db: Path) -> Iterator[str]:
    with serve(tournament_db) as url:
        yield url


@pytest.fixture(scope="session")
def tournament_id(base_url: str) -> int:
    (tournament,) = fetch(f"{base_url}/api/tournaments").json()
    return int(tournament["id"])


@pytest.fixture(scope="session")
def match_ids(base_url: str, tournament_id: int) -> list[str]:
    return [m["match_id"] for m in fetch(f"{base_url}/api/tournaments/{tournament_id}/matches").json()]


CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which ``.ci/run`` installs; Playwright drives it and downloads nothing."""
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no {CHROMIUM}: install Debian's chromium package (.ci/run does) to run the browser tests",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium for the browser tests of one module."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page_errors() -> list[str]:
    """Script errors and console errors of the test's tab; a test that provokes one takes it out."""
    return []


@pytest.fixture
def page(browser: Browser, page_errors: list[str]) -> Iterator[Page]:
    """A fresh tab that fails the test on any script error or error on the console."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = page_errors
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        yield page
    finally:
        context.close()
    assert errors == []
