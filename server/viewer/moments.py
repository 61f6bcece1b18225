"""Text of one replay moment, and moving between moments by step or by turn.

Works on any game: boards come from the game plugin's text renderer, the rest
from the replay format (:mod:`server.replay`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sdk.games.plugin import GamePlugin
from server.display import visible
from server.replay import Moment


@dataclass(frozen=True, slots=True)
class ReplayText:
    """A replay and its re-simulated positions, ready to show as text."""

    replay: dict[str, Any]
    positions: list[Moment]
    plugin: GamePlugin

    @property
    def last(self) -> int:
        return len(self.positions) - 1

    def turn_at(self, index: int) -> int:
        """The turn a moment belongs to: that of the step leading to it (the start: turn 1)."""
        before = max(index - 1, 0)
        return int(self.replay["moments"][before]["turn"])

    @property
    def turns(self) -> int:
        return self.turn_at(self.last)

    def turn_span(self, turn: int) -> range:
        """Indexes of the moments reached by the steps of ``turn``."""
        indexes = [i for i in range(1, len(self.positions)) if self.turn_at(i) == turn]
        return range(indexes[0], indexes[-1] + 1) if indexes else range(0)

    @property
    def turn_numbers(self) -> list[int]:
        """The turns that have steps, in order (a game's turn count may skip turns without any)."""
        return sorted({self.turn_at(i) for i in range(1, len(self.positions))})

    def next_turn(self, index: int) -> int:
        """The first moment of the next turn that has steps (or the last moment)."""
        turn = self.turn_at(index)
        later = [t for t in self.turn_numbers if t > turn]
        return self.turn_span(later[0]).start if later else self.last

    def previous_turn(self, index: int) -> int:
        """The first moment of this turn, or of the previous one when already there."""
        turn = self.turn_at(index)
        span = self.turn_span(turn)
        if span and index != span.start:
            return span.start
        earlier = [t for t in self.turn_numbers if t < turn]
        return self.turn_span(earlier[-1]).start if earlier else 0

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "chance"
        return f"seat {seat} {visible(self.replay['seats'][seat]['name'])}"

    def step_line(self, index: int) -> str:
        """One line for the step that led to moment ``index``."""
        step = self.replay["moments"][index]["step"]
        if step is None:
            return f"#{index:<5} start of the match"
        line = f"#{index:<5} {self.seat_name(step['seat'])}: {step['text']}"
        if step["latency_us"] is not None:
            line += f"  ({step['latency_us'] / 1000:.1f} ms)"
        if step["source"] == "fallback":
            line += "  [forfeited seat: safe default]"
        if step["strike"]:
            line += f"  [STRIKE: {visible(step['strike'])}; safe default played]"
        return line

    def header(self) -> str:
        match = self.replay["match"]
        where = f" · {visible(match['tournament'])}" if match["tournament"] else ""
        seats = "  ".join(
            f"{s['seat']}:{visible(s['name'])} {s['score']} pts #{s['rank']}"
            + (f" ({s['strikes']} strikes)" if s["strikes"] else "")
            + (" FORFEITED" if s["forfeited"] else "")
            for s in self.replay["seats"]
        )
        seen = self.replay["viewer_seat"]
        as_seen = "" if seen is None else f" · as seat {seen} saw it"
        players = f"{match['players']} players{as_seen}"
        title = f"match {visible(match['id'])}{where} · {match['title']} · {players}"
        return f"{title}\nfinal: {seats}"

    def moment(self, index: int, *, recent: int = 8) -> str:
        """Everything about moment ``index``: where it is, how it came, the boards."""
        lines = [
            f"moment {index}/{self.last} · turn {self.turn_at(index)}/{self.turns}",
            "",
            self.plugin.render(self.positions[index].state, self.replay["viewer_seat"]),
            "",
            "steps:",
        ]
        lines += [self.step_line(i) for i in range(max(0, index - recent + 1), index + 1)]
        return "\n".join(lines)

    def turn(self, turn: int) -> str:
        """Every step of ``turn`` and the position after its last step."""
        span = self.turn_span(turn)
        if not span:
            raise ValueError(self._no_turn(turn))
        lines = [f"turn {turn}/{self.turns}", *(self.step_line(i) for i in span), ""]
        lines.append(self.plugin.render(self.positions[span[-1]].state, self.replay["viewer_seat"]))
        return "\n".join(lines)

    def _no_turn(self, turn: int) -> str:
        """Why ``turn`` cannot be shown: out of the match, or a turn the game passed without a step."""
        if not 1 <= turn <= self.turns:
            return f"turn {turn} is not in this match (turns 1 to {self.turns})"
        before = [t for t in self.turn_numbers if t < turn]
        after = [t for t in self.turn_numbers if t > turn]
        nearest = " and ".join(str(t) for t in (before[-1:] + after[:1]))
        return (
            f"turn {turn} has no steps (the game moved past it without a decision); "
            f"nearest turns with steps: {nearest}"
        )
