"""Bracket files that would cost time or memory to read are refused at once, with one line.

Alias bombs, self-referencing anchors, deep nesting, huge files, named pipes and devices:
each is refused by ``load_bracket`` in well under a second, and by the real ``smtourney run``
under a 256 MiB address-space limit, with exit status 2, one line and nothing written.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from server import guard
from server.tournament.bracket import BracketError, load_bracket
from server.tournament.bracket_yaml import MAX_BYTES, MAX_DEPTH, MAX_NODES

from ..commands import ENV, SMTOURNEY

HEAD = "name: t\nplayers: 2\nentrants:\n  - {name: a, command: x}\n  - {name: b, command: x}\n"


def alias_bomb(levels: int = 9) -> str:
    """Nine levels of nine aliases each: 9**9 (387 million) values once expanded."""
    lines = ["  a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, levels + 1):
        lines.append(f"  a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return HEAD + "params:\n" + "\n".join(lines) + "\n"


CASES: dict[str, tuple[str, int | None, str | None, str]] = {
    # name: (text, line, field, message)
    "alias bomb": (
        alias_bomb(),
        11,
        "params.a4",
        f"aliases here expand to more than {MAX_NODES:,} values (an alias bomb?)",
    ),
    "self-referencing anchor": (
        HEAD + "params: &p {x: *p}\n",
        6,
        "params.x",
        "an alias here refers to a node that contains it",
    ),
    "self-referencing list": (
        HEAD + "params: {x: &l [1, *l]}\n",
        6,
        "params.x[1]",
        "an alias here refers to a node that contains it",
    ),
    "deep flow nesting": (
        HEAD + "params: {x: " + "[" * 100_000 + "]" * 100_000 + "}\n",
        6,
        "params.x" + "[0]" * (MAX_DEPTH - 1),
        f"nested more than {MAX_DEPTH} levels deep",
    ),
    "deep block nesting": (
        HEAD + "params:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(60)) + "  " * 61 + "v: 1\n",
        7 + MAX_DEPTH,  # where the value too deep begins
        ".".join(["params", *(f"k{i}" for i in range(MAX_DEPTH))]),
        f"nested more than {MAX_DEPTH} levels deep",
    ),
    "deep aliases": (
        HEAD
        + "params:\n"
        + "".join(f"  a{i}: &a{i} [{f'*a{i - 1}' if i else 0}]\n" for i in range(MAX_DEPTH + 5)),
        7 + MAX_DEPTH - 1,
        f"params.a{MAX_DEPTH - 1}",
        f"aliases here nest more than {MAX_DEPTH} levels deep",
    ),
    "too many values": (
        HEAD + "params:\n  x: [" + ", ".join(["1"] * (MAX_NODES + 10)) + "]\n",
        7,
        f"params.x[{MAX_NODES - 21}]",
        f"more than {MAX_NODES:,} values in the file",
    ),
    "a number too long to read": (
        HEAD + "seed: " + "9" * 5000 + "\n",
        6,
        "seed",
        "a number 5,000 characters long is out of range",
    ),
    "an integer tag on a word": (
        HEAD + "seed: !!int abc\n",
        6,
        "seed",
        "cannot read 'abc' as int: invalid literal for int() with base 10: 'abc'",
    ),
    "a thirteenth month": (
        HEAD + "seed: 2001-13-45\n",
        6,
        "seed",
        "cannot read '2001-13-45' as timestamp: month must be in 1..12",
    ),
    "a boolean tag on a word": (
        HEAD + "duplicate: !!bool maybe\n",
        6,
        "duplicate",
        "cannot read 'maybe' as bool: 'maybe'",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_costly_documents_are_refused_quickly_at_their_field(case: str, tmp_path: Path) -> None:
    text, line, field, message = CASES[case]
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(BracketError) as caught:
        load_bracket(path)
    elapsed = time.perf_counter() - started
    assert (caught.value.line, caught.value.field, caught.value.message) == (line, field, message)
    assert elapsed < 3.0, f"{case} took {elapsed:.2f} s to refuse"


def fifo(folder: Path) -> Path:
    path = folder / "pipe.yaml"
    os.mkfifo(path)
    return path


def device(folder: Path) -> Path:
    path = folder / "zero.yaml"
    path.symlink_to("/dev/zero")
    return path


def huge(folder: Path) -> Path:
    path = folder / "huge.yaml"
    with path.open("w") as handle:
        handle.write(HEAD)
        handle.write("# " + "x" * (8 * MAX_BYTES) + "\n")
    return path


def folder(folder: Path) -> Path:
    path = folder / "dir.yaml"
    path.mkdir()
    return path


FILES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "named pipe": (fifo, "not a regular file (a named pipe); give the path of a YAML file"),
    "device": (device, "not a regular file (a character device); give the path of a YAML file"),
    "huge file": (
        huge,
        f"the file is {len(HEAD) + 8 * MAX_BYTES + 3:,} bytes; a bracket file may have at most {MAX_BYTES:,}",
    ),
    "folder": (folder, "not a regular file (a folder); give the path of a YAML file"),
}


@pytest.mark.parametrize("case", sorted(FILES))
def test_only_regular_files_of_bounded_size_are_read(case: str, tmp_path: Path) -> None:
    make, message = FILES[case]
    path = make(tmp_path)
    with pytest.raises(BracketError) as caught:
        load_bracket(path)
    assert str(caught.value) == f"{path}: {message}"


def test_the_real_command_refuses_them_within_bounded_time_and_memory(tmp_path: Path) -> None:
    """The costliest cases at once, each a ``smtourney run`` process limited to 256 MiB of address space."""
    paths: list[Path] = []
    for name in ("alias bomb", "deep flow nesting", "self-referencing anchor", "a number too long to read"):
        text = CASES[name][0]
        folder_of_case = tmp_path / name.replace(" ", "-")
        folder_of_case.mkdir()
        paths.append(folder_of_case / "x.yaml")
        paths[-1].write_text(text, encoding="utf-8")
    for name in ("named pipe", "device", "huge file"):
        make = FILES[name][0]
        folder_of_case = tmp_path / name.replace(" ", "-")
        folder_of_case.mkdir()
        paths.append(make(folder_of_case))
    # Through the launcher's guard: 256 MiB of address space, 60 s of CPU.
    limited = [sys.executable, "-I", "-S", guard.__file__, str(os.getpid()), str(256 << 20), "60", "--"]
    processes = [
        subprocess.Popen(
            [*limited, *SMTOURNEY, "run", str(path)],
            env=ENV,
            cwd=path.parent,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in paths
    ]
    try:
        for path, process in zip(paths, processes, strict=True):
            stdout, stderr = process.communicate(timeout=120)
            assert process.returncode == 2, (path, stdout, stderr)
            assert stdout == "" and stderr.startswith(f"error: {path}") and stderr.count("\n") == 1, stderr
            made = sorted(p.name for p in path.parent.iterdir())
            assert made == [path.name], f"{path}: files written: {made}"
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.communicate()
