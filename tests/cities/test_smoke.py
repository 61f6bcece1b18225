"""Whole games run, end, score, and replay from their records; the engine is standard library only."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from sdk.games import cities as ci

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
before = set(sys.modules)
import sdk.games.cities
print(json.dumps(sorted({name.split('.')[0] for name in set(sys.modules) - before})))
"""


def test_random_game_ends_with_ranks_and_replays() -> None:
    state, record = ci.play_game([ci.RandomPolicy(random.Random(i)) for i in range(4)], random.Random(1))
    assert state.is_terminal()
    assert sorted(state.ranks())[0] == 1
    again = ci.GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert ci.replay(again) == state
    assert ci.replay(record, upto=2).round == 1


def test_package_example_runs() -> None:
    doc = ci.__doc__ or ""
    example = doc.split("::", 1)[1]
    code = "\n".join(line[4:] for line in example.splitlines())
    exec(compile(code, "cities example", "exec"), {"__name__": "__doc_example__"})


def test_engine_imports_only_the_standard_library() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    top_level = set(json.loads(out.stdout))
    outside = top_level - set(sys.stdlib_module_names) - {"sdk"}
    assert "sdk" in top_level
    assert outside == set(), f"the engine imports {outside}"
