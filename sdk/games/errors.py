"""The one error every rules engine raises for a move the rules forbid."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that breaks a rule; ``rule`` names it (e.g. ``"R4 crates"``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
