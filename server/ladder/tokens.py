"""Participant tokens: made by :mod:`secrets`, kept only as a SHA-256 hash.

A token is 256 random bits, so a single fast hash is enough: nobody can guess one from its
hash, and unlike a password it needs no slow, salted hash. Looking a token up by its hash
keeps the comparison itself out of reach of timing.
"""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["MAX_TOKEN_CHARS", "new_token", "token_hash"]

TOKEN_BYTES = 32
PREFIX = "smt_"
"""Marks a string as a smtourney ladder token (secret scanners and people recognise it)."""
MAX_TOKEN_CHARS = 200
"""Longer bearer values are refused unread: no token of ours is near this long."""


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
