"""A match's per-move time chart, laid out in Python so the replay page draws it as plain SVG.

One line per seat: how long the bot took over each of its answers, in the match's order, against
the per-decision time (answers beyond it come off the bank). Generic over games: it reads only the
replay's steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .plot import Tick, nice_step

WIDTH, HEIGHT = 760, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 12, 36
SEATLESS = "#555555"
"""A seat beyond those the page's style sheet colours (``--seat-0`` ...)."""


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: int
    name: str
    color: str  # a CSS colour: the seat's own, as the rest of the viewer draws it
    points: str  # SVG polyline points: (answer number, ms)
    answers: int
    max_ms: float


@dataclass(frozen=True, slots=True)
class TimingPlot:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    limit_y: float | None  # the per-decision time, when it falls inside the chart
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    lines: list[SeatLine]


def seat_times_ms(replay: dict[str, Any]) -> dict[int, list[float]]:
    """Each seat's answer times in ms, in the match's order (only the answers the replay shows)."""
    times: dict[int, list[float]] = {seat["seat"]: [] for seat in replay["seats"]}
    for moment in replay["moments"]:
        step = moment.get("step")
        if step is not None and step.get("latency_us") is not None and step["seat"] in times:
            times[step["seat"]].append(step["latency_us"] / 1000)
    return times


def timing_plot(replay: dict[str, Any]) -> TimingPlot | None:
    """Lay out every seat's answer times on shared axes; None when the replay shows no timed answer."""
    times = seat_times_ms(replay)
    answers = max((len(t) for t in times.values()), default=0)
    if answers == 0:
        return None
    decision_ms = float(replay["match"]["time_control"]["decision_ms"])
    high = max(max(t) for t in times.values() if t)
    y_step = nice_step(high, 6)
    y_high = max(y_step, math.ceil(high / y_step) * y_step)
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(number: int) -> float:
        return round(LEFT + (right - LEFT) * number / max(answers - 1, 1), 1)

    def y(ms: float) -> float:
        return round(bottom - (bottom - TOP) * ms / y_high, 1)

    names = {seat["seat"]: seat["name"] for seat in replay["seats"]}
    lines = [
        SeatLine(
            seat=seat,
            name=names[seat],
            color=f"var(--seat-{seat}, {SEATLESS})",  # the seat's own colour, as everywhere in the viewer
            points=" ".join(f"{x(n)},{y(ms)}" for n, ms in enumerate(seat_times)),
            answers=len(seat_times),
            max_ms=round(max(seat_times), 1),
        )
        for seat, seat_times in times.items()
        if seat_times  # a seat's view hides the others' times
    ]
    x_step = nice_step(answers, 10)
    return TimingPlot(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        limit_y=y(decision_ms) if decision_ms <= y_high else None,
        x_ticks=[Tick(x(n - 1), str(n)) for n in range(1, answers + 1, x_step)],
        y_ticks=[Tick(y(v), str(v)) for v in range(0, y_high + 1, y_step)],
        lines=lines,
    )
