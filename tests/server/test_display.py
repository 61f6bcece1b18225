"""User text reaches the terminal literally: never read as markup, never able to move the cursor."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from server.display import plain, print_error, visible


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("greedy-2", "greedy-2"),
        ("[bold]x[/]", "[bold]x[/]"),
        ("émigré 棋士 👩\u200d💻", "émigré 棋士 👩\u200d💻"),  # letters and emoji sequences stay
        ("a\x1b[31mb", "a\\x1b[31mb"),
        ("line\nbreak\r", "line\\nbreak\\r"),
        ("tab\there", "tab\\there"),
        ("evil\u202eexe.yaml", "evil\\u202eexe.yaml"),
        ("\u2066isolate\u2069", "\\u2066isolate\\u2069"),
        ("sep\u2028arator", "sep\\u2028arator"),
        ("del\x7f and c1\x9b", "del\\x7f and c1\\x9b"),
        ("bytes\udcff", "bytes\\udcff"),  # an undecodable byte of a file name
    ],
)
def test_visible_escapes_exactly_the_characters_that_rewrite_a_terminal(text: str, shown: str) -> None:
    assert visible(text) == shown


def render(*objects: object) -> str:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)
    console.print(*objects)
    return out.getvalue()


@pytest.mark.parametrize("text", ["[/]", "[bold]x", "[red]a[/red]", "[link=http://x]y", "\\[", "[/"])
def test_markup_is_printed_as_written(text: str) -> None:
    assert render(plain(text)) == text + "\n"


def test_an_error_line_is_one_line_whatever_the_message() -> None:
    out = io.StringIO()
    console = Console(file=out, width=40, color_system=None, soft_wrap=True)  # as err_console
    print_error("x.yaml:3: [/]: unknown key '[/]'\nsecond\x1b[2J line " + "long " * 20, out=console)
    text = out.getvalue()
    assert text.count("\n") == 1 and "\x1b" not in text
    assert text.startswith("error: x.yaml:3: [/]: unknown key '[/]'\\nsecond\\x1b[2J line")
