"""Text from users and bots, shown in a terminal exactly as it is.

Names, keys, paths, match ids and fault details come from bracket files, command
lines and bot replies. Printed through rich as markup, ``[/]`` would crash the
command and ``[bold]`` restyle it; printed raw, an escape sequence could rewrite
the screen and a bidi override could reverse what follows it. So such text goes
through :func:`visible` and is handed to rich as :class:`~rich.text.Text`, which
rich never parses.
"""

from __future__ import annotations

import unicodedata

from rich.console import Console
from rich.text import Text

__all__ = ["err_console", "plain", "print_error", "visible"]

_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that change the direction of the text after them."""
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Control characters, lone surrogates (undecodable bytes of a path), line and paragraph separators."""

err_console = Console(stderr=True, highlight=False, soft_wrap=True)
"""Standard error, for one-line messages: no highlighting, no wrapping inside a line."""


def _hidden(char: str) -> bool:
    return char in _BIDI_CONTROLS or unicodedata.category(char) in _HIDDEN_CATEGORIES


def visible(text: str) -> str:
    """``text`` with every control, bidi-control and separator character written as an escape
    (``\\n``, ``\\x1b``, ``\\u202e``), so it stays on one line and means what it shows."""
    if text.isprintable():  # the common case, and never hidden (spaces are printable)
        return text
    return "".join(
        char.encode("unicode_escape", "backslashreplace").decode("ascii") if _hidden(char) else char
        for char in text
    )


def plain(text: object, style: str = "") -> Text:
    """``str(text)`` made :func:`visible`, as rich text that is never read as markup."""
    return Text(visible(str(text)), style=style)


def print_error(
    message: str, *, label: str = "error:", style: str = "red", out: Console = err_console
) -> None:
    """One line (on standard error by default): ``error: message``, the message shown literally."""
    out.print(Text.assemble((visible(label), style), " ", visible(message)))
