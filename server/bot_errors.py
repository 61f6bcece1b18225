"""What a bot's error status says, in one line for a fault record or a ``bot check`` report.

An SDK bot whose method raised answers with the exception's type and message and marks the status
(:data:`sdk.serve.RAISED_KEY`); its traceback is in its log. Any other error status, from a bot in
any language, is given with its code and details, and with where the bot's output is.
"""

from __future__ import annotations

from pathlib import Path

import grpc

from sdk.serve import RAISED_KEY


def raised(exc: grpc.RpcError) -> bool:
    """Whether the status reports an exception raised in the bot's code (an SDK bot's)."""
    trailing = getattr(exc, "trailing_metadata", None)
    metadata = trailing() if callable(trailing) else None
    return any(key == RAISED_KEY for key, _ in metadata or ())


def describe_status(exc: grpc.RpcError, log: Path | None) -> str:
    """``the bot raised ValueError: boom (traceback in LOG)``, or ``error status CODE: details``."""
    details = exc.details() or "(no details)"
    if raised(exc):
        return f"the bot raised {details} (traceback in {log if log is not None else 'its log'})"
    where = f" (the bot's output is in {log})" if log is not None else ""
    return f"error status {exc.code().name}: {details}{where}"
