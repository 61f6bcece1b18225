"""Self-signed TLS certificates for tests of bots reached over TLS (made with openssl)."""

from __future__ import annotations

import subprocess
from pathlib import Path


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
