"""Decision kinds (B24) and the phases of a round, shared by the state and its views."""

from __future__ import annotations

DRAW_PILE = "draw_pile"
PENALTY_ORDER = "penalty_order"
CANCEL_PENALTY = "cancel_penalty"
PLAGUE_DISCARD = "plague_discard"
FIRE_CHOICE = "fire_choice"
ADVANCE_REPUTATION = "advance_reputation"
#: B24's ``turn``; named ``take_turn`` because a bare ``turn`` is a word the shared code already uses.
TAKE_TURN = "take_turn"
EXTRA_PLAY = "extra_play"
KINDS = (
    DRAW_PILE, PENALTY_ORDER, CANCEL_PENALTY, PLAGUE_DISCARD, FIRE_CHOICE, ADVANCE_REPUTATION, TAKE_TURN,
    EXTRA_PLAY,
)  # fmt: skip
#: The ruling each decision kind answers to, named when a step is refused.
RULE_OF = {
    DRAW_PILE: "B9 draw",
    PENALTY_ORDER: "B12 penalty order",
    CANCEL_PENALTY: "B12 Knight",
    PLAGUE_DISCARD: "B12 Plague",
    FIRE_CHOICE: "B12 Fire",
    ADVANCE_REPUTATION: "B13 reputation",
    TAKE_TURN: "B14 turn",
    EXTRA_PLAY: "B15 extra play",
}

DRAW, THREATS, REPUTATION, TURNS, OVER = range(5)
PHASE_NAMES = ("draw", "threats", "reputation", "turns", "over")
MAJORITY_NAMES = ("reputation", "people", "canal")
PENALTY_NAMES = ("Flood", "Plague", "Fire", "Intrigue", "Raid")
