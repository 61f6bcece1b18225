"""Reference bots as real gRPC server processes on 127.0.0.1, for ladders to reach by address."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def bot_process(module: str, log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``python -m MODULE --port 0`` and the address it serves on; always stopped."""
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", module, "--port", "0"], cwd=ROOT, stdout=output, stderr=output
        )
    try:
        deadline = time.monotonic() + 60
        while (found := re.search(r"serving on (127\.0\.0\.1:\d+)", log.read_text())) is None:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, f"{module} did not start"
            time.sleep(0.05)
        yield process, found.group(1)
    finally:
        process.kill()
        process.wait()
