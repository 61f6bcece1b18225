/* Any OpenSpiel game for the smtourney web viewer: OpenSpiel's own text of the position as the
 * viewed seat may know it (the whole state for the organiser), the moves where every move is public,
 * and the returns at the end. One module serves the whole family: it registers for the prefix. */
(function () {
  "use strict";
  const { html } = window.smtourney;

  function returnsTable(view, ctx) {
    const best = Math.max(...view.returns);
    const rows = view.returns.map((value, seat) =>
      html("tr", {},
        html("td", {}, ctx.seatName(seat)),
        html("td", { class: "number" }, value),
        html("td", {}, value === best ? html("span", { class: "badge winner" }, "best") : null)));
    return html("table", { class: "returns" },
      html("caption", {}, "Returns (OpenSpiel's scores)"),
      html("tr", {}, html("th", {}, "seat"), html("th", {}, "return"), html("th", {}, "")),
      ...rows);
  }

  window.smtourney.registerGame("openspiel:", {
    css: [
      ".openspiel pre.position { overflow-x: auto; max-width: 100%; margin: 0.5em 0; padding: 0.6em;",
      "  font-size: 14px; line-height: 1.35; background: var(--paper); border: 1px solid var(--line); }",
      ".openspiel .moves { color: var(--muted); overflow-wrap: anywhere; }",
      ".openspiel table.returns td.number { text-align: right; }",
    ].join("\n"),
    draw(board, view, ctx) {
      board.replaceChildren(html("div", { class: "openspiel" },
        html("p", {}, [view.game, `${view.players} players`, view.turn ? `turn ${view.turn}` : null]
          .filter(Boolean).join(" · ")),
        html("pre", { class: "position" }, view.text || "(nothing shown to this seat yet)"),
        view.history && view.history.length
          ? html("p", { class: "moves" }, `Moves: ${view.history.join(" · ")}`)
          : null,
        view.returns ? returnsTable(view, ctx) : null));
    },
  });
})();
