"""Every game's bot page is true: its example bot plays, and every name its tables show exists.

A bot page (``docs/bots-<game>.md``) marks what is checked:

- ``<!-- example bot -->`` before a fenced ```python block: a complete bot module. Saved as a file of
  its own, it plays a sandboxed bracket against ``bots.random`` with no strike and passes ``smtourney
  bot check``; ``tests/test_bot_page_strength.py`` measures that it beats ``bots.random``.
- ``<!-- names: TARGET -->`` before a table: every code-formatted name in the table's first column is
  looked up in TARGET, which is one of

  - ``python:module:Class``: ``name`` is a dataclass field, an annotated or an existing attribute of
    the class;
    ``name(a, b)`` a method whose parameters after ``self`` are ``a, b``;
  - ``python:module``: ``Name(a, b)`` is a class of the module whose dataclass fields are ``a, b``,
    or a function of the module whose parameters are ``a, b``;
  - ``proto:module_pb2``: ``Message.field`` is a field of a message of the module's file, and
    ``Service.Method`` a method of one of its services.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

from sdk.bot import Bot
from sdk.games.registry import games
from server.cli import app as cli_app
from tests.bracket_play import standing_against_random

ROOT = Path(__file__).resolve().parent.parent
BOT_PAGES = sorted((ROOT / "docs").glob("bots-*.md"))

_EXAMPLE = re.compile(r"<!-- example bot -->\s*\n```python[ \t]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
_NAMES = re.compile(r"<!-- names: (\S+) -->\s*\n((?:\|.*\n)+)")
_CODE = re.compile(r"`([^`]+)`")
_CALL = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)(?:\((.*)\))?$")


def page_game(page: Path) -> str:
    return page.stem.removeprefix("bots-").replace("-", "_")


def examples(page: Path) -> list[str]:
    return _EXAMPLE.findall(page.read_text(encoding="utf-8"))


def named_tables(page: Path) -> list[tuple[str, list[str]]]:
    """``(target, names)`` per marked table: the code spans of each body row's first cell."""
    tables = []
    for target, table in _NAMES.findall(page.read_text(encoding="utf-8")):
        rows = table.strip("\n").split("\n")[2:]  # past the header and the rule
        names = [name for row in rows for name in _CODE.findall(row.split("|")[1])]
        tables.append((target, names))
    return tables


def _params(spec: str | None) -> list[str] | None:
    if spec is None:
        return None
    return [part.strip().split("=")[0].split(":")[0].strip() for part in spec.split(",") if part.strip()]


def _check_class_member(cls: type, name: str) -> str | None:
    match = _CALL.match(name)
    if match is None:
        return f"{name!r} is not a name"
    attr, params = match.group(1), _params(match.group(2))
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    fields |= set(inspect.get_annotations(cls))  # attributes a class declares and sets in __init__
    if params is None:
        if attr in fields or hasattr(cls, attr):
            return None
        return f"{cls.__name__} has no {attr!r}"
    method = getattr(cls, attr, None)
    if not callable(method):
        return f"{cls.__name__} has no method {attr!r}"
    actual = list(inspect.signature(method).parameters)[1:]
    return None if actual == params else f"{cls.__name__}.{attr} takes {actual}, the page says {params}"


def _check_module_class(module: ModuleType, name: str) -> str | None:
    match = _CALL.match(name)
    if match is None:
        return f"{name!r} is not a name"
    cls = getattr(module, match.group(1), None)
    params = _params(match.group(2))
    if inspect.isfunction(cls):
        takes = list(inspect.signature(cls).parameters)
        return None if params is None or takes == params else f"{cls.__name__} takes {takes}, not {params}"
    if not inspect.isclass(cls):
        return f"{module.__name__} has no class or function {match.group(1)!r}"
    if params is not None:
        actual = [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else None
        if actual != params:
            return f"{cls.__name__} has fields {actual}, the page says {params}"
    return None


def _check_proto(module: ModuleType, name: str) -> str | None:
    owner, _, member = name.partition(".")
    file = module.DESCRIPTOR
    if owner in file.message_types_by_name:
        fields = file.message_types_by_name[owner].fields_by_name
        return None if member in fields else f"message {owner} has no field {member!r}"
    if owner in file.services_by_name:
        methods = file.services_by_name[owner].methods_by_name
        return None if member in methods else f"service {owner} has no method {member!r}"
    return f"{file.name} has no message or service {owner!r}"


def check_name(target: str, name: str) -> str | None:
    """What is wrong with ``name`` in ``target``, or None when it exists as the page says."""
    kind, _, where = target.partition(":")
    module_name, _, class_name = where.partition(":")
    module = importlib.import_module(module_name)
    if kind == "proto":
        return _check_proto(module, name)
    if class_name:
        return _check_class_member(getattr(module, class_name), name)
    return _check_module_class(module, name)


def test_every_game_has_a_bot_page_with_an_example() -> None:
    paged = {page_game(page) for page in BOT_PAGES}
    missing = [f"docs/bots-{game.replace('_', '-')}.md" for game in sorted(set(games()) - paged)]
    assert not missing, (
        f"every installed game needs a bot page, missing: {', '.join(missing)}. A bot page shows one "
        "example bot (a fenced python block after <!-- example bot -->) that beats random play, and tables "
        "of the Python and proto names it uses (<!-- names: ... -->); see this file's docstring"
    )
    assert not paged - set(games()), f"bot pages of games not installed: {sorted(paged - set(games()))}"
    for page in BOT_PAGES:
        assert len(examples(page)) == 1, f"{page.name} needs exactly one example bot"
        targets = {target.split(":")[0] for target, _ in named_tables(page)}
        assert targets == {"python", "proto"}, f"{page.name} must check Python and proto names"


@pytest.mark.parametrize("page", BOT_PAGES, ids=[page.stem for page in BOT_PAGES])
def test_every_name_the_page_shows_exists(page: Path) -> None:
    problems = []
    for target, names in named_tables(page):
        assert names, f"a table of {page.name} names nothing"
        problems += [f"{target}: {p}" for name in names if (p := check_name(target, name)) is not None]
    assert problems == []


def test_the_name_check_can_fail() -> None:
    assert check_name("python:sdk.bot:Bot", "name") is None
    assert check_name("python:sdk.bot:Bot", "no_such_field") is not None
    assert check_name("python:sdk.games.masons.bot:MasonsBot", "wall(observation, context)") is None
    assert check_name("python:sdk.games.masons.bot:MasonsBot", "wall(state, context)") is not None
    assert check_name("python:sdk.games.masons.actions", "Wall(line)") is None
    assert check_name("python:sdk.games.masons.actions", "Wall(space)") is not None
    assert check_name("python:sdk.games.bruges", "determinize(observation, rng)") is None
    assert check_name("python:sdk.games.bruges", "determinize(state, rng)") is not None
    assert check_name("proto:sdk.games.masons.protocol.masons_pb2", "WallReply.line") is None
    assert check_name("proto:sdk.games.masons.protocol.masons_pb2", "WallReply.space") is not None
    assert check_name("proto:sdk.games.masons.protocol.masons_pb2", "Masons.Wall") is None
    assert check_name("proto:sdk.games.masons.protocol.masons_pb2", "Masons.Build") is not None


def _bot_classes(module: ModuleType) -> list[type[Any]]:
    return [
        value
        for value in vars(module).values()
        if inspect.isclass(value) and issubclass(value, Bot) and value.__module__ == module.__name__
    ]


def example_bot_class(page: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> type[Bot]:
    """The page's example saved as a module in ``folder`` and imported: its one bot class."""
    module_name = f"example_{page_game(page)}_bot"
    (folder / f"{module_name}.py").write_text(examples(page)[0], encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(sys.modules, module_name, raising=False)
    (bot_class,) = _bot_classes(importlib.import_module(module_name))
    return bot_class


@pytest.fixture
def bot_folder(tmp_path: Path) -> Path:
    """A folder for a bot's files, readable by the unprivileged user a sandboxed bot runs as
    (pytest makes its folders private to their owner)."""
    tmp_path.chmod(0o755)
    return tmp_path


@pytest.mark.parametrize("page", BOT_PAGES, ids=[page.stem for page in BOT_PAGES])
def test_the_example_bot_plays_a_sandboxed_bracket_against_random(page: Path, bot_folder: Path) -> None:
    """Saved as the page says and entered in a bracket by its command: every match played, no fault."""
    tmp_path = bot_folder
    script = tmp_path / f"example_{page_game(page)}_bot.py"
    script.write_text(examples(page)[0], encoding="utf-8")
    row = standing_against_random(tmp_path / "duel.yaml", page_game(page), f"python {script}")
    assert row["matches"] == 2 and row["strikes"] == 0 and row["forfeits"] == 0, row


@pytest.mark.parametrize("page", BOT_PAGES, ids=[page.stem for page in BOT_PAGES])
def test_the_example_bot_passes_bot_check(page: Path, bot_folder: Path) -> None:
    """Saved as the page says, the example runs as its own sandboxed process and passes every check."""
    tmp_path = bot_folder
    script = tmp_path / f"example_{page_game(page)}_bot.py"
    script.write_text(examples(page)[0], encoding="utf-8")
    result = CliRunner().invoke(
        cli_app,
        ["bot", "check", f"python {script}", "--game", page_game(page), "--log-dir", str(tmp_path / "logs")],
    )
    assert result.exit_code == 0, result.output
    assert "PASS Hello" in result.output and "FAIL" not in result.output
