"""A replay's moments as the first view in full, then each moment's changes to the view before it.

A game's view repeats everything on the table at every moment (a fixed board, the cards of every
seat), so a page that inlined every view was megabytes of the same data. A page carries the changes
instead, and the viewer (``static/viewer.js``, ``rebuildViews``) rebuilds each view before drawing it.

The format (docs/web-viewer.md) knows no game: a moment's ``changes`` is a list of operations, each
a path of object keys and list indexes into the view before, then

- ``[path, value]``: set the key or index at ``path`` to ``value`` (an index one past a list's end
  appends to it);
- ``[path]``: remove the key at ``path``, or cut the list at ``path`` down to the indexes before it.

An object whose keys would come out in another order (keys added in its middle) is set whole, so a
rebuilt view iterates its keys as the full view does.
"""

from __future__ import annotations

import json
from typing import Any

Path = list[str | int]
Change = list[Any]


class _Texts:
    """Each value's JSON text, kept for the containers seen (a view is compared with the one before
    it and then with the one after it: its text is made once)."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Any, str]] = {}  # by id; the value is kept so its id stays its own

    def of(self, value: dict[str, Any] | list[Any]) -> str:
        kept = self._kept.get(id(value))
        if kept is None:
            kept = self._kept[id(value)] = (value, _json(value))
        return kept[1]

    def same(self, a: Any, b: Any) -> bool:
        """The same JSON: ``True`` is not ``1``, ``1`` is not ``1.0`` and keys keep their order, unlike
        Python's ``==`` (which rules out most differences first, and quickly)."""
        if not isinstance(a, dict | list):
            return type(a) is type(b) and bool(a == b)
        return bool(a == b) and self.of(a) == self.of(b)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _keeps_order(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether removing and appending keys of ``before`` gives ``after``'s keys in their order."""
    kept = [key for key in before if key in after]
    return kept + [key for key in after if key not in before] == list(after)


def changes(before: Any, after: Any, texts: _Texts | None = None) -> list[Change]:
    """The operations that turn ``before`` into ``after`` (both plain JSON data)."""
    return _changes(before, after, [], _Texts() if texts is None else texts)


def _changes(before: Any, after: Any, at: Path, texts: _Texts) -> list[Change]:
    if texts.same(before, after):
        return []
    if isinstance(before, dict) and isinstance(after, dict) and _keeps_order(before, after):
        found = [[[*at, key]] for key in before if key not in after]
        for key, value in after.items():
            if key in before:
                found += _changes(before[key], value, [*at, key], texts)
            else:
                found.append([[*at, key], value])
        return found
    if isinstance(before, list) and isinstance(after, list):
        found = []
        for index, value in enumerate(after):
            if index < len(before):
                found += _changes(before[index], value, [*at, index], texts)
            else:
                found.append([[*at, index], value])
        if len(after) < len(before):
            found.append([[*at, len(after)]])
        # A list whose items moved (a log that keeps its latest records) is shorter set whole.
        return found if len(found) < 2 or len(_json(found)) <= len(_json(after)) else [[at, after]]
    return [[at, after]]


def with_view_changes(replay: dict[str, Any]) -> dict[str, Any]:
    """``replay`` with every moment after the first holding ``changes`` in place of its ``view``."""
    moments = replay["moments"]
    texts = _Texts()
    compact = [
        moment
        if i == 0
        else {key: value for key, value in moment.items() if key != "view"}
        | {"changes": changes(moments[i - 1]["view"], moment["view"], texts)}
        for i, moment in enumerate(moments)
    ]
    return replay | {"moments": compact}
