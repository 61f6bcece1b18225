"""Loading a YAML file into a pydantic model, a problem reported as file, line, field and message.

Shared by every file a person writes for smtourney (a bracket, a ladder): the bounded read and
parse of :mod:`.bracket_yaml`, then validation, then the first error (nearest the top of the file)
worded for whoever wrote the YAML.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from .bracket_errors import BracketError, FieldError, Loc, format_path, show
from .bracket_yaml import Lines, parse, read_text

__all__ = ["load_model"]

ModelT = TypeVar("ModelT", bound=BaseModel)


def load_model(path: Path, root: type[ModelT], context: dict[str, Any], what: str) -> ModelT:
    """The ``root`` model in the YAML file ``path``; the first problem is raised as a :class:`BracketError`.

    ``what`` names the file's kind in the message about a file that is not a mapping.
    """
    data, lines = parse(path, read_text(path))
    if not isinstance(data, dict):
        got = "an empty file" if data is None else show(data)
        raise BracketError(path, lines.nodes.get(()), None, f"expected a mapping of {what} fields, got {got}")
    try:
        return root.model_validate(data, context=context)
    except ValidationError as exc:
        raise _first_error(path, root, exc, lines) from None


def _first_error(path: Path, root: type[BaseModel], exc: ValidationError, lines: Lines) -> BracketError:
    """The error nearest the top of the file (errors without a line come last)."""
    found: list[tuple[float, int, BracketError]] = []
    for order, details in enumerate(exc.errors()):
        loc, message = _describe(root, details)
        line = lines.line(loc)
        error = BracketError(path, line, format_path(loc) or None, message)
        found.append((float("inf") if line is None else line, order, error))
    return min(found, key=lambda item: item[:2])[2]


def _describe(root: type[BaseModel], details: ErrorDetails) -> tuple[Loc, str]:
    """Where an error of pydantic's is and what to tell whoever writes the YAML about it."""
    loc: Loc = tuple(details["loc"])
    kind = details["type"]
    ctx: dict[str, Any] = dict(details.get("ctx") or {})
    value = details.get("input")
    shown = show(value)
    if loc and loc[-1] == "[key]":
        return loc[:-1], f"keys must be strings, got {shown}"
    if kind in {"value_error", "assertion_error"} and isinstance(ctx.get("error"), BaseException):
        error = ctx["error"]
        if isinstance(error, FieldError):
            return (*loc, *error.loc), str(error)
        return loc, str(error)
    if kind == "missing":
        return loc, f"missing required field {loc[-1]!r}"
    if kind == "extra_forbidden":
        return loc, _unknown_key(root, loc)
    messages = {
        "int_type": f"expected an integer, got {shown}",
        "int_parsing": f"expected an integer, got {shown}",
        "int_from_float": f"expected an integer, got {shown}",
        "float_type": f"expected a number, got {shown}",
        "float_parsing": f"expected a number, got {shown}",
        "bool_type": f"expected true or false, got {shown}",
        "bool_parsing": f"expected true or false, got {shown}",
        "string_type": f"expected a string, got {shown}"
        + (" (put it in quotes)" if isinstance(value, int | float) else ""),
        "dict_type": f"expected a mapping (key: value lines), got {shown}",
        "model_type": f"expected a mapping (key: value lines), got {shown}",
        "model_attributes_type": f"expected a mapping (key: value lines), got {shown}",
        "list_type": f"expected a list ('- ' items), got {shown}",
        "path_type": f"expected a path, got {shown}",
        "greater_than_equal": f"must be at least {_bound(ctx.get('ge'))}, got {shown}",
        "less_than_equal": f"must be at most {_bound(ctx.get('le'))}, got {shown}",
        "greater_than": f"must be greater than {_bound(ctx.get('gt'))}, got {shown}",
        "less_than": f"must be less than {_bound(ctx.get('lt'))}, got {shown}",
        "finite_number": f"must be a finite number, got {shown}",
        "literal_error": f"expected {ctx.get('expected')}, got {shown}",
    }
    if kind == "too_short" and loc == ("entrants",):
        return (
            loc,
            f"a tournament needs at least {ctx.get('min_length')} entrants, got {ctx.get('actual_length')}",
        )
    if kind == "too_long" and loc == ("entrants",):
        return (
            loc,
            f"a tournament may have at most {ctx.get('max_length')} entrants, got {ctx.get('actual_length')}",
        )
    if kind == "string_too_short":
        return loc, "must not be empty"
    return loc, messages.get(kind, details["msg"])


def _unknown_key(root: type[BaseModel], loc: Loc) -> str:
    """Name the unknown key and the likely intended one (or all known ones)."""
    key = str(loc[-1])
    model = _model_at(root, loc[:-1])
    if model is None:
        return f"unknown key {key!r}"
    known = list(model.model_fields)
    close = difflib.get_close_matches(key, known, n=1)
    if close:
        return f"unknown key {key!r} (did you mean {close[0]!r}?)"
    return f"unknown key {key!r}; known keys: {', '.join(known)}"


def _model_at(root: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The model class validating the mapping at ``loc`` under ``root`` (None if not a model)."""
    current: Any = root
    for part in loc:
        if isinstance(part, str) and isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(part)
            current = None if info is None else _model_or_list(info.annotation)
        elif isinstance(part, int) and get_origin(current) is list:
            current = _model_or_list(get_args(current)[0])
        else:
            return None
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _model_or_list(annotation: Any) -> Any:
    """``X | None`` as ``X``; other annotations as they are."""
    if get_origin(annotation) in (Union, UnionType):
        members = [arg for arg in get_args(annotation) if arg is not type(None)]
        return members[0] if len(members) == 1 else None
    return annotation


def _bound(value: object) -> str:
    """A limit as written in a bracket: ``0``, not pydantic's ``0.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
