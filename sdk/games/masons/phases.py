"""The phases of a turn (what the state waits for) and the decision kinds: a leaf module the state,
its rules and its views all import, so the rules never need the state at run time."""

from __future__ import annotations

CHANCE, TERMINAL = -1, -2

SETUP, WALL, ROLL, TOWERS, HOUSES, CONNECT, SCORE, SWAP, FINAL, OVER = range(10)
PHASE_NAMES = ("setup", "wall", "roll", "towers", "houses", "connect_city", "score_cards", "swap",
               "final_score", "over")  # fmt: skip
DECISION_PHASES = {WALL: "wall", TOWERS: "towers", HOUSES: "houses", CONNECT: "connect_city",
                   SCORE: "score_cards", SWAP: "swap", FINAL: "final_score"}  # fmt: skip
