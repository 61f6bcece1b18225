"""A bracket's game parameters: normalized by the game, and checked to be what the bracket
says and to reach every bot intact, so a tournament never fails on them half-way.

Problems are raised as :class:`FieldError` at the parameter they concern (below ``params``).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping
from typing import Any

from google.protobuf import json_format, struct_pb2

from sdk.games.plugin import DecisionContext, GamePlugin
from server.bounds import MAX_BANK_MS, MAX_DECISION_MS, MAX_PARAM_INT

from .bracket_errors import FieldError, Loc, show

__all__ = ["normalized_params"]

GAME_ERRORS = (ValueError, TypeError, LookupError, ArithmeticError, json_format.Error)
"""What a game (``int(x)``, ``a[i]``) or protobuf raises for parameters it cannot use."""
_CHANCE_STEPS = 100
"""Chance steps taken at most to reach a match's first decision."""


def normalized_params(plugin: GamePlugin, players: int, params: dict[str, Any]) -> dict[str, Any]:
    """The game's normalized ``params``, refused at the parameter concerned when

    - a number cannot reach a bot exactly (checked before the game sees it);
    - the game refuses them (located at the key its message names, or that fails alone);
    - the game had to convert a value to another type (``3.0`` for an integer);
    - the game cannot encode them for a bot (a field too narrow for the value).
    """
    problem = _number_problem(params)
    if problem is not None:
        raise FieldError(problem[1], ("params", *problem[0]))
    try:
        normalized = plugin.normalize_params(params)
    except GAME_ERRORS as exc:
        message = str(exc) if isinstance(exc, ValueError) else f"invalid value: {exc}"
        raise FieldError(message, ("params", *_culprit(params, str(exc), _refused(plugin)))) from None
    problem = _coercion_problem(params, normalized)
    if problem is not None:
        raise FieldError(problem[1], ("params", *problem[0]))
    undeliverable = _delivery_problem(plugin, players, normalized)
    if undeliverable is not None:
        where = _culprit(params, undeliverable, _undeliverable(plugin, players))
        raise FieldError(f"a bot cannot be sent this value: {undeliverable}", ("params", *where))
    return normalized


def _refused(plugin: GamePlugin) -> Callable[[dict[str, Any]], bool]:
    def fails(params: dict[str, Any]) -> bool:
        try:
            plugin.normalize_params(params)
        except GAME_ERRORS:
            return True
        return False

    return fails


def _undeliverable(plugin: GamePlugin, players: int) -> Callable[[dict[str, Any]], bool]:
    def fails(params: dict[str, Any]) -> bool:
        return _delivery_problem(plugin, players, plugin.normalize_params(params)) is not None

    return fails


def _delivery_problem(plugin: GamePlugin, players: int, params: dict[str, Any]) -> str | None:
    """Why ``params`` could not be put on the wire to a bot, or None.

    The game and its codec know what fits (a ``uint32`` field, say), so they are asked: the
    parameters are encoded as ``StartMatch`` sends them, and a match is started and its
    first decision request encoded, as the referee will.
    """
    try:
        json_format.ParseDict(params, struct_pb2.Struct())
        state = plugin.new_state(players, params)
        rng = random.Random(0)
        for _ in range(_CHANCE_STEPS):
            if not state.is_chance_node():
                break
            state.apply(state.sample_chance(rng))
        if not state.is_terminal() and not state.is_chance_node():
            seat = state.current_player
            context = DecisionContext("check", 1, seat, MAX_DECISION_MS, MAX_BANK_MS)
            plugin.decisions[plugin.decision_kind(state)].encode_request(plugin.observe(state, seat), context)
    except GAME_ERRORS as exc:
        return str(exc)
    return None


def _culprit(params: Mapping[str, Any], message: str, fails: Callable[[dict[str, Any]], bool]) -> Loc:
    """The key of ``params`` an error is about: the deepest key its message names, else the
    one top-level key that ``fails`` on its own, else none."""
    named: list[tuple[int, int, Loc]] = []  # (-depth, position in message, loc)

    def visit(mapping: Mapping[Any, Any], prefix: Loc) -> None:
        for key, value in mapping.items():
            if not isinstance(key, str):
                continue
            found = re.search(rf"(?<!\w){re.escape(key)}(?!\w)", message)
            if found:
                named.append((-(len(prefix) + 1), found.start(), (*prefix, key)))
            if isinstance(value, Mapping):
                visit(value, (*prefix, key))

    visit(params, ())
    if named:
        return min(named)[2]
    for key, value in params.items():
        if fails({key: value}):
            return (key,)
    return ()


_KINDS: dict[type, str] = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


def _number_problem(params: Any, loc: Loc = ()) -> tuple[Loc, str] | None:
    """The first number in ``params`` that cannot reach a bot exactly as a JSON number:
    infinite, not a number, or beyond ±(2**53 - 1). Checked before a game sees them, so
    no game has to survive ``1e308`` or ``.inf``."""
    if isinstance(params, dict):
        items: Any = params.items()
    elif isinstance(params, list):
        items = enumerate(params)
    else:
        if isinstance(params, int | float) and not isinstance(params, bool):
            if isinstance(params, float) and not math.isfinite(params):
                return loc, f"must be a finite number, got {show(params)}"
            if abs(params) > MAX_PARAM_INT:
                return loc, f"must be between {-MAX_PARAM_INT} and {MAX_PARAM_INT}, got {show(params)}"
        return None
    for key, value in items:
        found = _number_problem(value, (*loc, key))
        if found is not None:
            return found
    return None


def _coercion_problem(given: Any, normalized: Any, loc: Loc = ()) -> tuple[Loc, str] | None:
    """The first game parameter the game had to convert to another type: ``3.0`` or ``true``
    for an integer, ``"4"`` for a number.

    Games are lenient (``int(value)``), but a bracket means what it says: ``count: 2.5``
    must not quietly become 2. ``given`` is the bracket's ``params``, ``normalized`` what the
    game made of them; values are compared where both have them.
    """
    if isinstance(given, dict) and isinstance(normalized, dict):
        for key, value in given.items():
            if key in normalized:
                found = _coercion_problem(value, normalized[key], (*loc, key))
                if found is not None:
                    return found
        return None
    if isinstance(given, list) and isinstance(normalized, list) and len(given) == len(normalized):
        for index, (value, normal) in enumerate(zip(given, normalized, strict=True)):
            found = _coercion_problem(value, normal, (*loc, index))
            if found is not None:
                return found
        return None
    expected = type(normalized)
    if expected in _KINDS and not _same_kind(given, expected):
        return loc, f"expected {_KINDS[expected]}, got {show(given)}"
    return None


def _same_kind(value: object, expected: type) -> bool:
    """``value`` is of the ``expected`` kind; an integer counts as a number, a boolean as nothing else."""
    if isinstance(value, bool) or expected is bool:
        return type(value) is expected
    if expected is float:
        return isinstance(value, int | float)
    return isinstance(value, expected)
