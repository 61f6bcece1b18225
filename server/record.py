"""The match record: everything that happened in one match, enough to re-simulate it.

Game-agnostic: steps and actions are stored in the game's own JSON form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: 2: decision ids count each seat's decisions (1 counted every seat's together).
#: 3: ``asked_at`` marks the decisions asked together (simultaneous decisions).
RECORD_FORMAT = 3


@dataclass
class StepRecord:
    """One applied step: a chance outcome, or a seat's decision."""

    seq: int  # place in the match, all steps and seats together
    kind: str  # "chance", or the game's decision kind
    step: dict[str, Any]  # the step applied to the game, in the game's JSON form
    seat: int | None = None
    decision_id: int | None = None  # the seat's own decision count, from 1 (as sent to its bot)
    source: str = "chance"  # "chance", "bot", "default" (after a strike), "fallback" (forfeited seat)
    reply: dict[str, Any] | None = None  # what the bot answered, when it differs from the step
    latency_us: int | None = None
    strike: str | None = None  # why the bot's answer was not used
    #: For a decision asked together with others (simultaneous): the seq of the group's first step,
    #: from whose position every request of the group was built; None for a decision asked alone.
    asked_at: int | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StepRecord:
        return cls(**data)


@dataclass
class SeatRecord:
    """A seat's entrant, its bot, and how it fared."""

    seat: int
    name: str
    bot: str = ""  # the bot's own name and version from Hello
    strikes: int = 0
    forfeited: bool = False
    forfeit_reason: str | None = None
    faults: list[str] = field(default_factory=list)  # every fault, in order, with its reason
    time_used_ms: float = 0.0
    score: float = 0  # whole numbers as ints (sdk.games.scores)
    rank: int = 0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatRecord:
        return cls(**data)


@dataclass
class MatchRecord:
    """A complete match: who, with what seed and rules, every step, and the result."""

    match_id: str
    game: str
    seed: int
    players: int
    params: dict[str, Any]
    time_control: dict[str, int]
    seats: list[SeatRecord]
    steps: list[StepRecord] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    end_reason: str = "completed"
    summary: dict[str, Any] = field(default_factory=dict)
    duration_s: float = 0.0
    format: int = RECORD_FORMAT

    def to_json(self) -> dict[str, Any]:
        """The record as plain data, to serialize or send at once.

        Records, seats and steps are new dicts, but the JSON values inside them (a step's
        ``step``, the params, the summary) are the record's own, not copies: a deep copy of
        every step cost a worker milliseconds per match.
        """
        data = dict(vars(self))
        data["seats"] = [{**vars(seat), "faults": list(seat.faults)} for seat in self.seats]
        data["steps"] = [dict(vars(step)) for step in self.steps]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchRecord:
        version = data.get("format")
        if version not in (1, 2, RECORD_FORMAT):
            raise ValueError(f"unsupported match record format {version!r}")
        fields = dict(data, format=RECORD_FORMAT)
        fields["seats"] = [SeatRecord.from_json(s) for s in data["seats"]]
        fields["steps"] = [StepRecord.from_json(s) for s in data["steps"]]
        if version == 1:
            count_decisions_per_seat(fields["steps"])
        return cls(**fields)


def count_decisions_per_seat(steps: list[StepRecord]) -> None:
    """Renumber decision ids of a format-1 record (one count for all seats) per seat."""
    counts: dict[int, int] = {}
    for step in steps:
        if step.seat is not None:
            counts[step.seat] = counts.get(step.seat, 0) + 1
            step.decision_id = counts[step.seat]
