"""Colours and text sizes of the boards and the rating chart, as headless Chromium computes them.

Bruges' SVG text keeps 4.5:1 contrast against the shape it is drawn on (WCAG AA for normal text), and
12 px or more at the board's default size (a 1400 px window). Inside Cities' seat panels no empire is
painted in a colour close to a seat's, and the rating chart's entrants are not coloured as seats.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from typer.testing import CliRunner

from server.cli import app as cli_app

from .conftest import fetch, needs_chromium, serve

pytestmark = needs_chromium

BRACKET = """\
name: colours-{game}
game: {game}
players: {players}
rounds: 1
seed: 5
entrants:
{entrants}
"""

#: Colour arithmetic in the page: ``lab`` (CIE L*a*b* of an RGB triple), ``onWhite`` (a CSS colour,
#: a translucent one laid on white), ``contrast`` (WCAG 2 ratio of two RGB triples), ``seats`` (the
#: seats' colours, in L*a*b*) and ``distance`` (CIE76, from an RGB triple to the closest seat colour).
COLOUR_JS = r"""
  const channels = (colour) => (colour.match(/[\d.]+/g) || []).map(Number);
  const onWhite = (colour) => {
    const [r, g, b, a = 1] = channels(colour);
    return [r, g, b].map((v) => v * a + 255 * (1 - a));
  };
  const linear = (v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const lab = (rgb) => {
    const [r, g, b] = rgb.map(linear);
    const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
    const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
    const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
    const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map(linear);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
  const root = getComputedStyle(document.documentElement);
  const seats = [0, 1, 2, 3, 4, 5].map((n) => root.getPropertyValue("--seat-" + n).trim()).filter(Boolean)
    .map((hex) => lab(hex.match(/[\da-f]{2}/gi).map((h) => parseInt(h, 16))));
  const distance = (rgb) => Math.min(...seats.map(
    (seat) => Math.hypot(...lab(rgb).map((v, i) => v - seat[i]))));
"""

#: Each SVG text of the board: its words, its size in CSS pixels as drawn, its colour, the fill of the
#: shape under its middle (the page's paper when none) and their contrast ratio (WCAG 2).
BOARD_TEXT_JS = (
    r"""() => {"""
    + COLOUR_JS
    + r"""
  return [...document.querySelectorAll("#board svg text")].filter((t) => t.textContent.trim()).map((t) => {
    const scale = t.getScreenCTM();
    const box = t.getBoundingClientRect();
    const under = document.elementsFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      .find((e) => e !== t && e instanceof SVGGeometryElement && getComputedStyle(e).fill !== "none");
    const paper = getComputedStyle(t.ownerSVGElement).backgroundColor;
    const ground = under ? getComputedStyle(under).fill : paper;
    const ink = getComputedStyle(t).fill;
    return {
      text: t.textContent,
      px: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(scale.a, scale.b),
      ink,
      ground,
      contrast: contrast(onWhite(ink), onWhite(ground)),
    };
  });
}"""
)

#: Bruges' yellow, so the test knows it met text on it.
YELLOW = "rgb(232, 195, 0)"


def bracket(game: str, players: int) -> str:
    entrants = "\n".join(
        f"  - {{name: random-{seat}, transport: inprocess, bot: bots.random:RandomBot}}"
        for seat in range(players)
    )
    return BRACKET.format(game=game, players=players, entrants=entrants)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Bruges match between two random bots, and a Cities match between three, served on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("colours")
    db = folder / "colours.db"
    for game, players in (("bruges", 2), ("cities", 3)):
        path: Path = folder / f"{game}.yaml"
        path.write_text(bracket(game, players))
        result = CliRunner().invoke(cli_app, ["run", str(path), "--db", str(db)])
        assert result.exit_code == 0, result.output
    with serve(db) as url:
        yield url


def open_replay(page: Page, site: str, game: str) -> int:
    """Opens the first match of ``game``'s tournament at its start; the number of its last moment."""
    (tournament,) = [t for t in fetch(f"{site}/api/tournaments").json() if t["name"] == f"colours-{game}"]
    matches = f"/tournaments/{tournament['id']}/matches"
    page.set_viewport_size({"width": 1400, "height": 3000})
    page.goto(f"{site}{matches}/{fetch(f'{site}/api{matches}').json()[0]['match_id']}")
    page.wait_for_selector("#viewer[data-ready='true']")
    return int(page.get_attribute("#viewer", "data-moments") or 0) - 1


def texts_through_the_match(page: Page, last: int) -> list[dict[str, Any]]:
    """The board's texts at about forty moments spread over the match."""
    found: list[dict[str, Any]] = []
    for moment in range(0, last + 1, max(1, last // 40)):
        page.eval_on_selector(
            "#scrub", f"(bar) => {{ bar.value = {moment}; bar.dispatchEvent(new Event('input')); }}"
        )
        page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{moment}'")
        found += page.evaluate(BOARD_TEXT_JS)
    return found


def test_bruges_board_text_is_legible_on_every_fill(page: Page, site: str) -> None:
    texts = texts_through_the_match(page, open_replay(page, site, "bruges"))
    assert any(t["ground"] == YELLOW for t in texts), "no text on a yellow card, die or canal was drawn"
    faint = [t for t in texts if t["contrast"] < 4.5]
    assert faint == [], faint[:5]
    small = [t for t in texts if t["px"] < 12 - 0.01]
    assert small == [], small[:5]


#: Inside Cities' seat panels: each colour an empire's mark paints (its text, ground and borders, a
#: translucent one laid on white), with its smallest CIE76 distance to a seat's colour; and the contrast
#: of each mark's text on its ground.
EMPIRE_MARKS_JS = (
    r"""() => {"""
    + COLOUR_JS
    + r"""
  const marks = [...document.querySelectorAll(
    ".ct-seat .ct-group .label, .ct-seat .ct-city, .ct-seat .ct-empire-done")];
  const painted = [];
  for (const mark of marks) {
    const style = getComputedStyle(mark);
    const borders = ["Top", "Right", "Bottom", "Left"]
      .filter((side) => parseFloat(style["border" + side + "Width"]) > 0)
      .map((side) => style["border" + side + "Color"]);
    const colours = [style.color, style.backgroundColor, ...borders];
    for (const colour of colours.filter((c) => channels(c)[3] !== 0)) {
      painted.push({ mark: mark.className, colour, distance: distance(onWhite(colour)) });
    }
  }
  const ground = (mark) => getComputedStyle(mark).backgroundColor;
  return {
    seats: seats.length,
    painted,
    contrast: marks.filter((mark) => channels(ground(mark))[3] !== 0).map((mark) => ({
      mark: mark.className,
      contrast: contrast(onWhite(getComputedStyle(mark).color), onWhite(ground(mark))),
    })),
  };
}"""
)

#: A colour this far (CIE76) from every seat's is not taken for one.
DISTINCT = 20


def test_cities_empires_are_not_painted_in_seat_colours_inside_seat_panels(page: Page, site: str) -> None:
    last = open_replay(page, site, "cities")
    page.keyboard.press("End")
    page.wait_for_function(f"document.getElementById('viewer').dataset.moment === '{last}'")
    found: dict[str, Any] = page.evaluate(EMPIRE_MARKS_JS)
    assert found["seats"] >= 3 and found["painted"], found
    close = [mark for mark in found["painted"] if mark["distance"] < DISTINCT]
    assert close == [], close[:5]
    faint = [mark for mark in found["contrast"] if mark["contrast"] < 4.5]
    assert faint == [], faint[:5]


#: The rating chart's entrant colours, with each one's distance to the closest seat colour and to the
#: closest other entrant's, and its contrast on white.
CHART_JS = (
    r"""() => {"""
    + COLOUR_JS
    + r"""
  const strokes = [...document.querySelectorAll(".plot polyline.series")]
    .map((line) => onWhite(getComputedStyle(line).stroke));
  return strokes.map((rgb, i) => ({
    colour: rgb,
    seat: distance(rgb),
    other: Math.min(...strokes.filter((_, j) => j !== i)
      .map((other) => Math.hypot(...lab(rgb).map((v, k) => v - lab(other)[k])))),
    contrast: contrast(rgb, [255, 255, 255]),
  }));
}"""
)


def test_the_rating_chart_does_not_colour_entrants_as_seats(page: Page, site: str) -> None:
    (tournament,) = [t for t in fetch(f"{site}/api/tournaments").json() if t["name"] == "colours-cities"]
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{site}/tournaments/{tournament['id']}")
    lines: list[dict[str, Any]] = page.evaluate(CHART_JS)
    assert len(lines) == 3, lines
    assert [line for line in lines if line["seat"] < DISTINCT] == []
    assert [line for line in lines if line["other"] < DISTINCT] == []
    assert [line for line in lines if line["contrast"] < 3] == []
