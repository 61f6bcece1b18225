"""The one error every rules engine raises for a move the rules forbid."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that breaks a rule; ``rule`` names it (its number in the rulings, a word or two)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
