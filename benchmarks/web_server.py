"""``smtourney web`` over a database, served on 127.0.0.1 for the page benchmarks, always stopped."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def served(db: Path) -> Iterator[str]:
    """``smtourney web`` over ``db`` on 127.0.0.1; yields its base URL; always stops it."""
    web = subprocess.Popen(
        [sys.executable, "-m", "server", "web", "--db", str(db), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert web.stdout is not None
        line = web.stdout.readline()
        found = re.search(r"at (http://127\.0\.0\.1:\d+)/", line)
        assert found, f"smtourney web did not say where it serves: {line!r}"
        yield found.group(1)
    finally:
        web.terminate()
        web.wait(timeout=30)
