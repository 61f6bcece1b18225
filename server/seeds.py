"""Seeds derived from a parent seed and names, so every match and every random
stream is reproducible yet independent of the others."""

from __future__ import annotations

import hashlib


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (e.g. tournament seed, match id, a chance stream's name).

    63 bits, so a seed fits a signed 64-bit database integer.
    """
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
