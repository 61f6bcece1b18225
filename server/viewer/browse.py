"""Step through a replay in the terminal, one key at a time."""

from __future__ import annotations

import os
import select
import sys
import termios
import tty
from collections.abc import Callable

from .moments import ReplayText

HELP = "→/n next  ←/p back  ]/N next turn  [/P turn start  g go to turn  Home/End first/last  q quit"

#: Escape sequences of the keys we use, as terminals send them.
_SEQUENCES = {
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1b[H": "home",
    "\x1b[F": "end",
    "\x1b[1~": "home",
    "\x1b[4~": "end",
    "\x1bOH": "home",
    "\x1bOF": "end",
}


def navigate(text: ReplayText, index: int, key: str) -> int | None:
    """The moment a key leads to from ``index``; None means quit; unknown keys stay put."""
    moves: dict[str, Callable[[], int]] = {
        "right": lambda: min(index + 1, text.last),
        "n": lambda: min(index + 1, text.last),
        " ": lambda: min(index + 1, text.last),
        "left": lambda: max(index - 1, 0),
        "p": lambda: max(index - 1, 0),
        "]": lambda: text.next_turn(index),
        "N": lambda: text.next_turn(index),
        "[": lambda: text.previous_turn(index),
        "P": lambda: text.previous_turn(index),
        "home": lambda: 0,
        "end": lambda: text.last,
    }
    if key in {"q", "\x1b", "\x03", "\x04"}:
        return None
    move = moves.get(key)
    return index if move is None else move()


def read_key(fd: int) -> str:
    """One key press: a character, or a name for an arrow/Home/End sequence."""
    first = os.read(fd, 1).decode(errors="replace")
    if first != "\x1b":
        return first
    sequence = first
    while len(sequence) < 4:
        ready = os.read(fd, 1).decode(errors="replace") if _pending(fd) else ""
        if not ready:
            break
        sequence += ready
        if sequence in _SEQUENCES:
            return _SEQUENCES[sequence]
    return sequence if len(sequence) > 1 else first


def _pending(fd: int) -> bool:
    return bool(select.select([fd], [], [], 0.05)[0])


def _ask_turn(fd: int, write: Callable[[str], None]) -> int | None:
    write("\ngo to turn: ")
    digits = ""
    while True:
        key = read_key(fd)
        if key in {"\r", "\n"}:
            return int(digits) if digits else None
        if key.isdigit():
            digits += key
            write(key)
        elif key in {"\x7f", "\b"} and digits:
            digits = digits[:-1]
            write("\b \b")
        elif key in {"\x1b", "q", "\x03"}:
            return None


def browse(text: ReplayText, start: int = 0) -> None:
    """Show moment after moment until the user quits; the terminal is restored after."""
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)

    def write(chunk: str) -> None:
        sys.stdout.write(chunk)
        sys.stdout.flush()

    index, note = start, ""
    try:
        tty.setcbreak(fd)
        while True:
            screen = [text.header(), "", text.moment(index), "", *([note] if note else []), HELP]
            write("\x1b[2J\x1b[H" + "\n".join(screen))
            note = ""
            key = read_key(fd)
            if key == "g":
                turn = _ask_turn(fd, write)
                if turn is not None:
                    span = text.turn_span(turn)
                    if span:
                        index = span.start
                    else:
                        note = f"there is no turn {turn} (turns 1 to {text.turns})"
                continue
            moved = navigate(text, index, key)
            if moved is None:
                break
            index = moved
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        write("\n")
