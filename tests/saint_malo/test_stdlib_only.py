"""The rules engine is pure standard-library Python, so any bot can import it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
before = set(sys.modules)
import sdk.games.saint_malo
import sdk.games.saint_malo.defaults
print(json.dumps(sorted({name.split('.')[0] for name in set(sys.modules) - before})))
"""


def test_engine_imports_only_the_standard_library() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    top_level = set(json.loads(out.stdout))
    outside = top_level - set(sys.stdlib_module_names) - {"sdk"}
    assert "sdk" in top_level
    assert outside == set(), f"the engine imports {outside}"
