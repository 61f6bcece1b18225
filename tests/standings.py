"""``standings --json`` as the determinism tests compare it: every value a result decides.

Decision times and the time bank used are measured wall-clock figures (server/tournament/conduct.py),
so they are left out; everything else must be byte-identical between equivalent runs.
"""

from __future__ import annotations

import json

MEASURED = ("decision_ms", "bank_used_ms")


def decided(output: str) -> str:
    """The standings JSON without its measured keys, dumped the way the command dumps it."""
    rows = json.loads(output)
    assert all(key in row for row in rows for key in MEASURED), output
    return json.dumps([{k: v for k, v in row.items() if k not in MEASURED} for row in rows], indent=2)
