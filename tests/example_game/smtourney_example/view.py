"""The position as plain data and text, and steps in words, as a seat may know them."""

from __future__ import annotations

from typing import Any

from .state import Bid, Claim, State, Step

#: The nouns of the game's rules: no code outside the game may use them (a conformance test checks).
NOUNS = (
    "prize", "prizes", "bid", "bids",
)  # fmt: skip


def view(game: State, seat: int | None) -> dict[str, Any]:
    return {
        "round": game.round,
        "prize": game.prize,
        "prizes_left": len(game.deck),
        "scores": game.scores(),
        "hands": [sorted(hand) if seat in (None, s) else len(hand) for s, hand in enumerate(game.hands)],
        "last_bids": list(game.last_bids),
    }


def render(game: State, seat: int | None) -> str:
    shown = view(game, seat)
    return (
        f"round {shown['round']}, prize {shown['prize']}, {shown['prizes_left']} left; "
        f"scores {shown['scores']}; hands {shown['hands']}; last bids {shown['last_bids']}"
    )


def describe(game: State, step: Step, seat: int | None) -> str | None:
    if isinstance(step, Bid):
        return f"bids {step.card}" if seat in (None, game.current_player) else "bids a hidden card"
    if isinstance(step, Claim):
        return "keeps the prize" if step.keep else "takes the bid card back"
    return "the prizes are shuffled" if seat is not None else f"prize order {list(step.order)}"
