"""Without the ``rl`` extra, importing the learning environments says in one line how to get them."""

from __future__ import annotations

import subprocess
import sys

BLOCKED = "import sys; sys.modules['pettingzoo'] = None; import sdk.env"


def test_importing_sdk_env_without_pettingzoo_names_the_extra() -> None:
    done = subprocess.run([sys.executable, "-c", BLOCKED], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ImportError: sdk.env needs PettingZoo and Gymnasium: pip install -e '.[rl]'"
    )
