"""The Node.js example bot (docs/examples/node/) passes ``smtourney bot check`` and plays a match.

Run when ``node`` and ``npm`` are installed; its packages are installed from the npm registry
when missing (``node_modules`` stays out of the repository).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "node"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None, reason="node and npm are not installed"
)


@pytest.fixture(scope="module")
def installed() -> Path:
    if not (EXAMPLE / "node_modules" / "@grpc" / "grpc-js").is_dir() or not (EXAMPLE / "proto").is_dir():
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund"],
            cwd=EXAMPLE,
            check=True,
            capture_output=True,
            timeout=300,
        )
    return EXAMPLE / "bot.js"


def test_the_node_example_passes_bot_check(installed: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "server", "bot", "check", f"node {installed}", "--log-dir", str(tmp_path)],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert all(line.startswith("PASS ") for line in lines), result.stdout
    assert "PASS Hello: node-example 1.0, protocol 1" in lines


def test_the_node_example_plays_a_whole_match_sandboxed(installed: Path, tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    result = subprocess.run(
        [
            sys.executable, "-m", "server", "play", "--game", "saint_malo", "--bot", f"node {installed}",
            "--bot", "python -m bots.random", "--record", str(record), "--log-dir", str(tmp_path / "logs"),
        ],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    seats = json.loads(record.read_text())["seats"]
    assert seats[0]["bot"] == "node-example 1.0"
    assert seats[0]["strikes"] == 0 and not seats[0]["forfeited"], seats[0]
    log = next((tmp_path / "logs").glob("*.seat0.*.log")).read_text()
    assert "serving on unix:/run/smtourney/bot.sock" in log
