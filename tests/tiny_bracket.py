"""The small Saint Malo bracket that the tournament and the scale tests run on every store and
executor: three entrants two to a table, so three tables, each in both seat rotations."""

from __future__ import annotations

from pathlib import Path

MATCHES = 6

BRACKET = """\
name: tiny
game: saint_malo
players: 2
rounds: 1
seed: 99
time_control: {{decision_ms: 5000, bank_ms: 20000}}
workers: {workers}
entrants:
  - {{name: greedy, command: python -m bots.greedy, env: {{SMTOURNEY_TEST_TAG: "{tag}"}}}}
  - {{name: random-a, command: python -m bots.random, env: {{SMTOURNEY_TEST_TAG: "{tag}"}}}}
  - {{name: random-b, command: python -m bots.random, env: {{SMTOURNEY_TEST_TAG: "{tag}"}}}}
"""


def write_bracket(folder: Path, tag: str = "untagged", workers: int = 1) -> Path:
    """``folder/tiny.yaml``; ``tag`` goes into every bot's environment, to find its processes."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tiny.yaml"
    path.write_text(BRACKET.format(tag=tag, workers=workers))
    return path
