"""The rating-history chart, laid out in Python so the page draws it as plain SVG without a chart library.

One line per entrant (its mu after each match it played) over a band of mu ± sigma.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .catalog import RatingPoint

WIDTH, HEIGHT = 760, 320
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 12, 36
#: Entrant colours: readable on white (3:1 or more), apart from each other, and apart from the seats'
#: colours (CIE76 distance 20 or more), since an entrant plays in every seat and a seat's colour on the
#: tournament page would say otherwise.
PALETTE = ("#1b2a6b", "#0b7a75", "#b8860b", "#e7298a", "#555555", "#7a8c00", "#5b1a6e", "#000000")


@dataclass(frozen=True, slots=True)
class Tick:
    at: float  # pixel position along its axis
    label: str


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    color: str
    points: str  # SVG polyline points of mu
    band: str  # SVG polygon points of mu ± sigma
    last_x: float
    last_y: float
    final_mu: float


@dataclass(frozen=True, slots=True)
class RatingPlot:
    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    series: list[Series]


def nice_step(span: float, ticks: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that cuts ``span`` into at most ``ticks`` steps."""
    decade = 1
    while True:
        for step in (decade, 2 * decade, 5 * decade):
            if span / step <= ticks:
                return step
        decade *= 10


def rating_plot(history: dict[str, list[RatingPoint]]) -> RatingPlot:
    """Lay out every entrant's history on shared axes: matches played so far, and rating."""
    points = [p for series in history.values() for p in series]
    matches = max((p.number for p in points), default=0) or 1
    low = min((p.mu - p.sigma for p in points), default=0.0)
    high = max((p.mu + p.sigma for p in points), default=50.0)
    y_step = nice_step(high - low, 8)
    y_low, y_high = math.floor(low / y_step) * y_step, math.ceil(high / y_step) * y_step
    if y_high == y_low:
        y_high += y_step
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(number: int) -> float:
        return round(LEFT + (right - LEFT) * number / matches, 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - TOP) * (value - y_low) / (y_high - y_low), 1)

    series = []
    for position, (name, history_points) in enumerate(history.items()):
        upper = [f"{x(p.number)},{y(p.mu + p.sigma)}" for p in history_points]
        lower = [f"{x(p.number)},{y(p.mu - p.sigma)}" for p in reversed(history_points)]
        last = history_points[-1]
        series.append(
            Series(
                name=name,
                color=PALETTE[position % len(PALETTE)],
                points=" ".join(f"{x(p.number)},{y(p.mu)}" for p in history_points),
                band=" ".join(upper + lower),
                last_x=x(last.number),
                last_y=y(last.mu),
                final_mu=round(last.mu, 2),
            )
        )
    x_step = nice_step(matches, 10)
    return RatingPlot(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        x_ticks=[Tick(x(n), str(n)) for n in range(0, matches + 1, x_step)],
        y_ticks=[Tick(y(v), str(v)) for v in range(y_low, y_high + 1, y_step)],
        series=series,
    )
