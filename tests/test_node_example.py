"""The Node.js example bot (docs/examples/node/) passes ``smtourney bot check`` and plays, sandboxed,
whether it listens on TCP at ``SMTOURNEY_PORT`` (as it does by default) or on the Unix socket; the
Masons one beside it, which sends the first legal reply each request lists, plays a sandboxed
bracket without a strike, and so does the OpenSpiel one at an OpenSpiel game.

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

from tests.bracket_play import standing_against_random

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
    subprocess.run(["node", "copy-protos.js"], cwd=EXAMPLE, check=True, capture_output=True, timeout=60)
    return EXAMPLE / "bot.js"


@pytest.mark.parametrize("where", ["", " {address}"], ids=["tcp-port", "unix-socket"])
def test_the_node_example_passes_bot_check(installed: Path, where: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "server",
            "bot",
            "check",
            f"node {installed}{where}",
            "--log-dir",
            str(tmp_path),
        ],
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
            sys.executable, "-m", "server", "play", "--game", "saint_malo",
            "--bot", f"node {installed} {{address}}", "--bot", "python -m bots.random",
            "--record", str(record), "--log-dir", str(tmp_path / "logs"),
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
    assert "serving on unix:/run/smtourney/bot.sock" in log and "relaying" not in log


def test_the_node_example_on_tcp_plays_a_sandboxed_bracket_without_a_fault(
    installed: Path, tmp_path: Path
) -> None:
    """Listening on TCP at SMTOURNEY_PORT only, as gRPC examples in every language do."""
    node = standing_against_random(tmp_path / "node.yaml", "saint_malo", f"node {installed}")
    assert node["matches"] == 2 and node["strikes"] == 0 and node["forfeits"] == 0, node


def test_a_node_masons_bot_sending_the_first_legal_reply_plays_a_bracket_without_a_strike(
    installed: Path, tmp_path: Path
) -> None:
    masons = installed.with_name("masons.js")
    node = standing_against_random(tmp_path / "masons.yaml", "masons", f"node {masons} {{address}}")
    assert node["matches"] == 2 and node["strikes"] == 0 and node["forfeits"] == 0, node


@pytest.mark.parametrize("how", ["argument", "environment", "installed"])
def test_copy_protos_works_from_a_copy_outside_the_repository(how: str, tmp_path: Path) -> None:
    """A bot author copies the example folder away: the .proto files come from a named checkout, or
    from the smtourney the Python at hand imports; with neither, one line says what to do."""
    shutil.copy(EXAMPLE / "copy-protos.js", tmp_path)
    env = {"PATH": "/usr/bin:/bin", "SMTOURNEY_PYTHON": "/nonexistent"}
    args = ["node", "copy-protos.js"]
    if how == "argument":
        args.append(str(ROOT))
    elif how == "environment":
        env["SMTOURNEY_ROOT"] = str(ROOT)
    else:
        env["SMTOURNEY_PYTHON"] = sys.executable
    subprocess.run(args, cwd=tmp_path, env=env, check=True, capture_output=True, timeout=60)
    copied = sorted(str(p.relative_to(tmp_path / "proto")) for p in (tmp_path / "proto").rglob("*.proto"))
    assert "smtourney/v1/bot.proto" in copied
    games = {path.parent.name for path in (ROOT / "sdk" / "games").glob("*/proto")}
    assert {p.split("/")[1] for p in copied} == {"v1", *games}
    shutil.rmtree(tmp_path / "proto")
    refused = subprocess.run(
        ["node", "copy-protos.js"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "SMTOURNEY_PYTHON": "/nonexistent"},
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1 and "SMTOURNEY_ROOT" in refused.stderr
    assert not (tmp_path / "proto").exists()


def test_a_node_openspiel_bot_built_from_the_proto_alone_plays_openspiel_games_sandboxed(
    installed: Path, tmp_path: Path
) -> None:
    bot = installed.with_name("openspiel.js")
    check = subprocess.run(
        [
            sys.executable, "-m", "server", "bot", "check", f"node {bot} {{address}}",
            "--game", "openspiel:kuhn_poker", "--log-dir", str(tmp_path / "logs"),
        ],
        cwd=ROOT, check=False, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    lines = check.stdout.splitlines()
    assert check.returncode == 0 and all(line.startswith("PASS ") for line in lines), (
        check.stdout + check.stderr
    )
    assert "PASS Hello: node-openspiel 1.0, protocol 1" in lines
    node = standing_against_random(tmp_path / "ttt.yaml", "openspiel:tic_tac_toe", f"node {bot} {{address}}")
    assert node["matches"] == 2 and node["strikes"] == 0 and node["forfeits"] == 0, node
