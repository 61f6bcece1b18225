"""Install the example game (``tests/example_game``) the way a user installs a plugin, into a
private directory, so it takes part in the conformance suite with no change anywhere else.

Only the conformance tests see it: :func:`example_game_visible` puts it on ``sys.path`` for a
while and takes it away again, so the rest of the test session keeps the registry it had.
"""

from __future__ import annotations

import atexit
import contextlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from sdk.games.registry import games, listed_games

EXAMPLE_SOURCE = Path(__file__).resolve().parent.parent / "example_game"


@cache
def install_example_game() -> Path:
    """pip-install the example game into a temporary directory and return it.

    The directory is removed when the test process exits. Subprocesses see the
    game when given ``PYTHONPATH`` set to it.
    """
    target = Path(tempfile.mkdtemp(prefix="smtourney-example-game-"))
    target.chmod(0o755)  # a plugin must be readable by the sandbox's unprivileged user, as bots run
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
    return target


@contextlib.contextmanager
def example_game_visible() -> Iterator[None]:
    """The example game is installed in this process for the duration of the block."""
    path = str(install_example_game())
    sys.path.insert(0, path)
    games.cache_clear()
    try:
        yield
    finally:
        sys.path.remove(path)
        games.cache_clear()


#: The games of a family (hundreds of admitted OpenSpiel games) checked in the default run; the rest
#: of the family's listed games are checked under the ``slow`` marker (``more_listed_games``).
FAMILY_SAMPLE = frozenset(
    f"openspiel:{name}"
    for name in (
        "kuhn_poker",
        "leduc_poker",
        "tic_tac_toe",
        "goofspiel",
        "liars_dice",
        "connect_four",
        "chess",
        "backgammon",
    )
)


#: Games of the sample whose random games are long: the default run plays one seed of them.
LONG_GAMES = frozenset({"openspiel:chess", "openspiel:backgammon"})


def _listed_with_example() -> list[str]:
    with example_game_visible():
        return sorted(listed_games())


def installed_games_with_example() -> list[str]:
    """Every installed game's name, the example's included, and the sample of the families' games."""
    return [name for name in _listed_with_example() if ":" not in name or name in FAMILY_SAMPLE]


def more_listed_games() -> list[str]:
    """The families' listed games left out of the sample, for the slow run."""
    return [name for name in _listed_with_example() if ":" in name and name not in FAMILY_SAMPLE]
