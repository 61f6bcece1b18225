"""The one error every rules engine raises for a move the rules forbid."""

from __future__ import annotations

from enum import Enum


class IllegalActionError(ValueError):
    """An action that breaks a rule; ``rule`` names it (its number in the rulings, a word or two)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


def shown(value: object) -> str:
    """``value`` as a refusal names it: an enum member by its name (``RED``, not ``<Colour.RED: 0>``,
    whose number is the engine's, not the wire's), anything else as Python writes it."""
    return value.name if isinstance(value, Enum) else repr(value)
