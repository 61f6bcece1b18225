"""The clock and strike options that ``smtourney play`` and ``smtourney duel`` share, declared once."""

from __future__ import annotations

from typing import Annotated

import typer

from .bounds import MAX_BANK_MS, MAX_DECISION_MS, MAX_STRIKES
from .referee import RefereeConfig, TimeControl

DecisionMs = Annotated[int, typer.Option(min=1, max=MAX_DECISION_MS, help="Time per decision, ms.")]
BankMs = Annotated[int, typer.Option(min=0, max=MAX_BANK_MS, help="Time bank per seat for the match, ms.")]
Strikes = Annotated[int, typer.Option(min=1, max=MAX_STRIKES, help="Strikes before a seat is forfeited.")]


def referee_config(decision_ms: int, bank_ms: int, strikes: int) -> RefereeConfig:
    return RefereeConfig(TimeControl(decision_ms, bank_ms), strikes_to_forfeit=strikes)
