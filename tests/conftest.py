"""Fixtures shared by every test package."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest


def processes_with(tag: str) -> list[int]:
    """PIDs of live processes whose command line or environment contains ``tag``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            text = Path(f"/proc/{entry}/cmdline").read_bytes() + Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().split()[2]
        except OSError:
            continue
        if tag.encode() in text and state != "Z":
            found.append(int(entry))
    return found


@pytest.fixture
def tag() -> str:
    """A unique marker to put on bot command lines."""
    return f"tag-{uuid.uuid4().hex}"
