"""Final scoring (B21): what each part of a player's position adds to their score at the end, and
the final score table: the score track at the end of play, then final scoring part by part."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sdk.games.score_rows import ScoreRow

from .cards import (
    BANKER,
    BISHOP,
    BUREAUCRATS,
    CARD_PERSON,
    CARD_PRICE,
    COUNT,
    MAYOR,
    PAINTER,
    PERSON_GROUP,
)

if TYPE_CHECKING:
    from .state import State


def final_points(state: State, seat: int) -> dict[str, int]:
    """The points final scoring adds for ``seat``, part by part (hand, markers and money give none)."""
    params = state.params
    persons = [CARD_PERSON[card] for card in state.persons_of(seat)]
    flipped = sum(state.majorities[seat])
    final = 0
    if COUNT in persons:
        final += 2 * flipped
    if MAYOR in persons:
        final += 2 * sum(1 for p in persons if p in BUREAUCRATS)
    if BISHOP in persons:
        final += sum(state.workers[seat]) // 2
    if BANKER in persons:
        final += state.guilders[seat] // 3
    if PAINTER in persons:
        final += len({PERSON_GROUP[p] for p in persons})
    return {
        "persons": sum(CARD_PRICE[card] // 3 for card in state.persons_of(seat)),
        "houses": len(state.houses[seat]),
        "final_persons": final,
        "majorities": params.majority_points * flipped,
        "space3": params.space3_points * sum(1 for k in state.canals[seat] if k >= 3),
        "statues": sum(state.statues[seat]),
        "reputation": params.reputation_points[state.rep[seat]],
    }


DURING_PLAY = "during play"
FINAL_SCORING = "final scoring (B21)"

#: Final scoring's parts in the order of B21, with their words.
FINAL_LABELS: tuple[tuple[str, str], ...] = (
    ("persons", "persons in play (price / 3)"),
    ("houses", "houses (1 each)"),
    ("final_persons", "end-of-game persons"),
    ("majorities", "flipped majorities"),
    ("space3", "canal sections with space 3"),
    ("statues", "statues"),
    ("reputation", "reputation step"),
)


def score_rows(state: State) -> tuple[ScoreRow, ...]:
    """The final score table of a finished game; each seat's rows add up to its final score.

    Final scoring was added to the score track at the end (B21), so what play gathered (persons,
    threats, canals..., less purple penalties) is the score less final scoring and the start score.
    """
    if not state.is_terminal():
        raise ValueError("final scoring is done at the end of the game")
    seats = range(state.n)
    final = [final_points(state, seat) for seat in seats]
    start = state.params.start_score
    played = tuple(state.score[seat] - sum(final[seat].values()) - start for seat in seats)
    return (
        ScoreRow("start", "start score", (start,) * state.n, DURING_PLAY),
        ScoreRow("play", "scored during play, less penalties", played, DURING_PLAY),
        *(
            ScoreRow(key, label, tuple(points[key] for points in final), FINAL_SCORING)
            for key, label in FINAL_LABELS
        ),
    )
