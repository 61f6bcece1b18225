"""The range of every number a bracket or a command line may set.

Each bound keeps a value usable to the end of a tournament: within the protocol's
``uint32`` fields and SQLite's signed 64-bit integers, within what the kernel can
apply as a limit, and small enough that what it sizes (a clock, a schedule, a pool
of processes) finishes. A value outside is refused when it is read, not discovered
by a worker hours later.
"""

from __future__ import annotations

__all__ = [
    "MAX_BANK_MS",
    "MAX_CPU_SECONDS",
    "MAX_DECISION_MS",
    "MAX_MEMORY_MB",
    "MAX_NAME_CHARS",
    "MAX_PARAM_INT",
    "MAX_PORT",
    "MAX_SEED",
    "MAX_STARTUP_S",
    "MAX_STRIKES",
    "MAX_WORKERS",
    "MIN_CPU_SECONDS",
    "MIN_MEMORY_MB",
    "MIN_STARTUP_S",
]

MAX_SEED = 2**63 - 1
"""Seeds are stored as SQLite integers (signed 64-bit)."""

MAX_DECISION_MS = 3_600_000
"""An hour per decision. Sent as ``uint32``, as is the bank; their sum stays far below 2**32."""
MAX_BANK_MS = 86_400_000
"""A day of bank per bot per match."""

MAX_STRIKES = 1_000
"""More strikes than any match has decisions: a bot that is never forfeited for faults."""

MAX_WORKERS = 64
"""Each worker is a process with its own bots; more would only thrash the machine."""

MIN_STARTUP_S = 1.0
"""A Python bot needs about half a second to start serving; less would forfeit every bot."""
MAX_STARTUP_S = 600.0
"""Ten minutes: a bot that takes longer to start is stuck, and a match must not wait forever."""

MIN_MEMORY_MB = 256
"""A Python gRPC bot does not even start in 128 MiB of address space (its threads reserve it)."""
MAX_MEMORY_MB = 1 << 20
"""1 TiB; far beyond any machine, yet well inside what ``setrlimit`` accepts."""

MIN_CPU_SECONDS = 5
"""Starting a Python bot takes about a second of CPU; less would kill bots before they play."""
MAX_CPU_SECONDS = 7 * 24 * 3600
"""A week of CPU time per bot process."""

MAX_NAME_CHARS = 64
"""Entrant names: shown in every table, and part of each bot's log file name."""

MAX_PARAM_INT = 2**53 - 1
"""Game parameters reach bots as JSON numbers (``google.protobuf.Struct``), exact up to 2**53."""

MAX_PORT = 65_535
"""The largest TCP port."""
