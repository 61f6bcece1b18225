"""Install the example game (``tests/example_game``) the way a user installs a plugin, into a
private directory, so it takes part in the suite with no change anywhere else."""

from __future__ import annotations

import atexit
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

from sdk.games.registry import games

EXAMPLE_SOURCE = Path(__file__).resolve().parent.parent / "example_game"


@cache
def install_example_game() -> Path:
    """pip-install the example game into a temporary directory put on ``sys.path``; return it.

    The directory is removed when the test process exits. Subprocesses see the
    game when given ``PYTHONPATH`` set to it.
    """
    target = Path(tempfile.mkdtemp(prefix="smtourney-example-game-"))
    atexit.register(shutil.rmtree, target, ignore_errors=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-cache-dir",
            "--target",
            str(target),
            str(EXAMPLE_SOURCE),
        ],
        check=True,
        capture_output=True,
    )
    shutil.rmtree(EXAMPLE_SOURCE / "build", ignore_errors=True)
    sys.path.insert(0, str(target))
    games.cache_clear()
    return target
