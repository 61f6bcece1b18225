"""Reads a game's drawn final score table back from the page and checks it against the replay."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

#: The table as drawn: its part rows in order, the total and rank rows, and the marked winners.
TABLE_JS = """(selector) => {
  const table = document.querySelector(selector);
  const cells = (tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent);
  return {
    parts: [...table.querySelectorAll("tr[data-part]")].map((tr) => [tr.dataset.part, ...cells(tr)]),
    score: cells(table.querySelector("tr[data-row='score']")).slice(1),
    rank: cells(table.querySelector("tr[data-row='rank']")).slice(1),
    winners: [...table.querySelectorAll("thead th.winner")].filter((th) => th.querySelector(".badge.winner"))
      .map((th) => th.className.match(/seat-(\\d+)/)[1]).map(Number),
  };
}"""


def assert_final_table(page: Page, replay: dict[str, Any], selector: str) -> dict[str, Any]:
    """The drawn rows are the last view's ``final_scoring`` in order, each seat's column adds up to
    its stored final score, and exactly the seats ranked first are marked as winners."""
    page.wait_for_selector(selector)
    drawn: dict[str, Any] = page.evaluate(TABLE_JS, selector)
    rows = replay["moments"][-1]["view"]["final_scoring"]
    assert drawn["parts"] == [[row["key"], row["label"], *map(str, row["points"])] for row in rows]
    seats = replay["seats"]
    sums = [sum(int(part[2 + seat["seat"]]) for part in drawn["parts"]) for seat in seats]
    assert sums == [seat["score"] for seat in seats]
    assert drawn["score"] == [str(seat["score"]) for seat in seats]
    assert drawn["rank"] == [str(seat["rank"]) for seat in seats]
    assert drawn["winners"] == [seat["seat"] for seat in seats if seat["rank"] == 1]
    assert drawn["winners"]
    return drawn
