"""Self-signed TLS certificates for tests of bots reached over TLS (made with openssl)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bots.random import RandomBot
from sdk.serve import BotServer, ServerTls, serve


def self_signed(folder: Path, common_name: str, alt_names: str) -> tuple[Path, Path]:
    """A certificate and its key in ``folder``, for ``common_name`` and ``alt_names`` (a
    subjectAltName value such as ``DNS:localhost,IP:127.0.0.1``), valid for a day."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={common_name}", "-addext", f"subjectAltName={alt_names}",
         "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


@contextmanager
def tls_random_bot(certificate: tuple[Path, Path], token: str) -> Iterator[BotServer]:
    """The random bot served over TLS with ``certificate``, requiring ``token``; always stopped."""
    cert, key = certificate
    running = serve(RandomBot(), 0, tls=ServerTls(cert.read_bytes(), key.read_bytes()), token=token)
    try:
        yield running
    finally:
        running.stop(grace=0)
