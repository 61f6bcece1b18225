"""Reading a bracket file: a bounded read and a bounded YAML parse, with the line of every key.

A bracket is a few kilobytes written by a person. Anything far larger or stranger is
refused before it can cost much: only regular files are opened (a named pipe would
block, a device never end), at most :data:`MAX_BYTES` are read, and the document may
hold at most :data:`MAX_NODES` values nested at most :data:`MAX_DEPTH` deep, counted
once while parsing and again with every alias expanded, before any Python object is
built. So an alias bomb, a self-referencing anchor or ten thousand nested lists are
each one line of error, in a fraction of a second.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError

from .bracket_errors import BracketError, Loc, format_path

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_NODES", "Lines", "parse", "read_text"]

MAX_BYTES = 256 * 1024
"""Largest bracket file read: a league of the most entrants allowed takes a tenth of this."""
MAX_NODES = 10_000
"""Most YAML values (mapping keys included) in a bracket, aliases expanded."""
MAX_DEPTH = 32
"""Deepest nesting of mappings and lists, aliases expanded; brackets need 5."""
MAX_NUMBER_CHARS = 100
"""Longest number read: longer ones are out of every range, and costly to convert."""
_INT_TAG = "tag:yaml.org,2002:int"

_KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def read_text(path: Path) -> str:
    """The text of the bracket file ``path``, refused unless a regular file of UTF-8 within the limit."""

    def refuse(message: str) -> BracketError:
        return BracketError(path, None, None, message)

    try:
        info = os.stat(path)
        _check_kind(info.st_mode, refuse)
        if info.st_size > MAX_BYTES:
            raise refuse(f"the file is {info.st_size:,} bytes; a bracket file may have at most {MAX_BYTES:,}")
        # Non-blocking, so a pipe put in the file's place since the check cannot make us wait.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(descriptor, "rb") as handle:
            _check_kind(os.fstat(descriptor).st_mode, refuse)
            data = handle.read(MAX_BYTES + 1)
    except BracketError:
        raise
    except FileNotFoundError:
        raise refuse("no such bracket file") from None
    except OSError as exc:
        raise refuse(f"cannot read the bracket file: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL in the path
        raise refuse(f"cannot read the bracket file: {exc}") from None
    if len(data) > MAX_BYTES:
        raise refuse(f"the file is over {MAX_BYTES:,} bytes, the most a bracket file may have")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise refuse(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None


def _check_kind(mode: int, refuse: Callable[[str], BracketError]) -> None:
    if not stat.S_ISREG(mode):
        kind = _KINDS.get(stat.S_IFMT(mode), "not a file")
        raise refuse(f"not a regular file ({kind}); give the path of a YAML file")


@dataclass
class Lines:
    """1-based line of every key and every value node of a YAML document, by path."""

    keys: dict[Loc, int] = field(default_factory=dict)
    nodes: dict[Loc, int] = field(default_factory=dict)

    def line(self, loc: Loc) -> int | None:
        """Line of ``loc``, or of its nearest ancestor that is in the file (a missing field's parent)."""
        for end in range(len(loc), -1, -1):
            prefix = loc[:end]
            if prefix in self.keys:
                return self.keys[prefix]
            if prefix in self.nodes:
                return self.nodes[prefix]
        return None


class _LocatedError(Exception):
    """A problem found while reading the document, at a line and a field (``()``: none)."""

    def __init__(self, line: int | None, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.loc = loc
        self.message = message


def _line_of(mark: yaml.Mark | None) -> int | None:
    return None if mark is None else mark.line + 1


def _syntax_message(exc: yaml.MarkedYAMLError) -> str:
    message = f"invalid YAML: {exc.problem or exc}"
    if exc.context and exc.context_mark is not None:
        message += f" ({exc.context} on line {exc.context_mark.line + 1})"
    return message


class _BoundedLoader(yaml.SafeLoader):
    """``SafeLoader`` that knows the field it is composing, stops past the node and depth
    limits, and reports a syntax error with that field."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._composed = 0
        self._path: list[int | str] = []

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        # PyYAML passes a sequence item's index, a mapping value's key node, None for the rest.
        part: int | str | None = index.value if isinstance(index, yaml.ScalarNode) else index
        if isinstance(index, yaml.Node) and part is index:
            part = "?"  # a value under a key that is itself a mapping or a list
        if part is not None:
            self._path.append(part)
        self._composed += 1
        try:
            if self._composed > MAX_NODES:
                raise self._error(self._next_line(), f"more than {MAX_NODES:,} values in the file")
            if len(self._path) > MAX_DEPTH:
                raise self._error(self._next_line(), f"nested more than {MAX_DEPTH} levels deep")
            return super().compose_node(parent, index)
        except yaml.MarkedYAMLError as exc:
            raise self._error(_line_of(exc.problem_mark), _syntax_message(exc)) from None
        finally:
            if part is not None:
                self._path.pop()

    def _error(self, line: int | None, message: str) -> _LocatedError:
        return _LocatedError(line, tuple(self._path), message)

    def _next_line(self) -> int | None:
        event: yaml.Event = self.peek_event()  # type: ignore[no-untyped-call]
        return None if event.start_mark is None else event.start_mark.line + 1


def parse(path: Path, text: str) -> tuple[Any, Lines]:
    """The YAML document in ``text`` as Python data, plus the line of every key and node in it."""
    try:
        loader = _BoundedLoader(text)
    except yaml.reader.ReaderError as exc:  # a character YAML forbids, found before parsing starts
        at = text.count("\n", 0, exc.position) + 1
        raise BracketError(path, at, None, f"invalid YAML: {str(exc).splitlines()[0]}") from None
    try:
        root = loader.get_single_node()
        if root is None:
            return None, Lines()
        _check_expanded(root)
        _check_nodes(loader, root, (), set())
        data = loader.construct_document(root)
        lines = Lines()
        # After construction: merge keys (<<) are flattened into their mappings by now.
        _map_lines(loader, root, (), lines)
        return data, lines
    except _LocatedError as exc:
        raise BracketError(path, exc.line, format_path(exc.loc) or None, exc.message) from None
    except yaml.MarkedYAMLError as exc:
        raise BracketError(path, _line_of(exc.problem_mark), None, _syntax_message(exc)) from None
    except yaml.YAMLError as exc:
        raise BracketError(path, None, None, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()


def _children(node: yaml.Node) -> list[tuple[int | str, yaml.Node]]:
    """A node's children with their place: keys and values under the key's text, items by index."""
    if isinstance(node, yaml.MappingNode):
        return [
            (key.value if isinstance(key, yaml.ScalarNode) else "?", part)
            for key, value in node.value
            for part in (key, value)
        ]
    if isinstance(node, yaml.SequenceNode):
        return list(enumerate(node.value))
    return []


def _check_expanded(root: yaml.Node) -> None:
    """Refuse a document whose aliases expand past the limits, or refer to a node they are in.

    Each node's expanded size and depth are computed once (aliases share nodes), without
    recursion, so the check costs no more than the nodes actually in the file.
    """
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    stack: list[tuple[yaml.Node, Loc, bool]] = [(root, (), False)]
    open_nodes: set[int] = set()
    while stack:
        node, loc, children_done = stack.pop()
        key = id(node)
        if children_done:
            open_nodes.discard(key)
            children = [child for _, child in _children(node)]
            size[key] = 1 + sum(size[id(child)] for child in children)
            depth[key] = 1 + max((depth[id(child)] for child in children), default=0)
            if size[key] > MAX_NODES:
                message = f"aliases here expand to more than {MAX_NODES:,} values (an alias bomb?)"
                raise _LocatedError(_line_of(node.start_mark), loc, message)
            if depth[key] > MAX_DEPTH:
                message = f"aliases here nest more than {MAX_DEPTH} levels deep"
                raise _LocatedError(_line_of(node.start_mark), loc, message)
            continue
        if key in size:
            continue
        if key in open_nodes:
            message = "an alias here refers to a node that contains it"
            raise _LocatedError(_line_of(node.start_mark), loc, message)
        open_nodes.add(key)
        stack.append((node, loc, True))
        stack.extend(
            (child, (*loc, part), False) for part, child in reversed(_children(node)) if id(child) not in size
        )


def _check_nodes(loader: yaml.SafeLoader, node: yaml.Node, loc: Loc, checked: set[int]) -> None:
    """Every scalar converts (no ``!!int x``, no 13th month, no number too long to convert
    quickly) and no key is given twice (YAML
    loaders would silently keep the last one); problems are located at their field."""
    if id(node) in checked:  # an alias of a node already checked
        return
    checked.add(id(node))
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _INT_TAG and len(node.value) > MAX_NUMBER_CHARS:
            message = f"a number {len(node.value):,} characters long is out of range"
            raise _LocatedError(_line_of(node.start_mark), loc, message)
        try:
            loader.construct_object(node)
        except ConstructorError as exc:
            raise _LocatedError(_line_of(node.start_mark), loc, _syntax_message(exc)) from None
        except (ValueError, TypeError, KeyError, OverflowError) as exc:
            message = f"cannot read {node.value!r} as {node.tag.rsplit(':', 1)[-1]}: {exc}"
            raise _LocatedError(_line_of(node.start_mark), loc, message) from None
    elif isinstance(node, yaml.MappingNode):
        seen: dict[tuple[str, Any], int] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(key_node, yaml.ScalarNode):
                continue
            key = (key_node.tag, key_node.value)
            line = key_node.start_mark.line + 1
            child = (*loc, key_node.value)
            if key in seen:
                raise _LocatedError(line, child, f"duplicate key (first given on line {seen[key]})")
            seen[key] = line
            _check_nodes(loader, key_node, child, checked)
            _check_nodes(loader, value_node, child, checked)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _check_nodes(loader, item, (*loc, index), checked)


def _map_lines(loader: yaml.SafeLoader, node: yaml.Node, loc: Loc, lines: Lines) -> None:
    """Visits every path of the expanded document: :func:`_check_expanded` bounds them, and
    ruled out loops."""
    lines.nodes[loc] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            key = loader.construct_object(key_node)
            if isinstance(key, int | str):
                lines.keys[(*loc, key)] = key_node.start_mark.line + 1
                _map_lines(loader, value_node, (*loc, key), lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _map_lines(loader, item, (*loc, index), lines)
