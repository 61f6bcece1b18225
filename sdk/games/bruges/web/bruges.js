/* Bruges' drawing module for the smtourney replay viewer (docs/web-viewer.md).
 *
 * Draws one position (the plugin's ``view``) as SVG: the round, phase and the five dice; the two draw
 * piles with the colour on top, the extra pile and the statues left; one play area per seat with its
 * score, guilders, workers, threat markers, reputation track, two canal sections (built spaces filled,
 * space 3 marked), majority markers and houses (house colour, the person in it, rotated persons
 * turned), and the hand (cards in the organiser's view and the seat's own, colours otherwise).
 * Seats carry their entrant's name; the seat whose view is shown is framed and labelled. At the end,
 * the final-scoring breakdown the replay's summary holds, and how ties were broken (B22).
 * Every label that sits in a box is fitted to it after drawing (``data-fit``: the room it has).
 */
(function () {
  "use strict";

  const viewer = window.smtourney;
  if (!viewer || typeof viewer.registerGame !== "function") {
    throw new Error("bruges.js draws for the smtourney viewer: load viewer.js before it");
  }
  const { html, svg } = viewer;
  const FILL = { blue: "#3a6fd8", brown: "#8a5a2b", red: "#d23c3c", purple: "#7b3fa6", yellow: "#e8c300" };
  /* Text on a colour's fill, at 4.5:1 contrast or more: white is 1.7:1 on yellow, so yellow takes dark ink. */
  const INK = { blue: "#fff", brown: "#fff", red: "#fff", purple: "#fff", yellow: "#222" };
  const COLOURS = ["blue", "brown", "red", "purple", "yellow"];

  const CSS = `
.bg-board { display: flex; flex-direction: column; gap: 12px; }
.bg-board svg { background: var(--paper); border: 1px solid var(--line); max-width: 100%; min-width: 720px; height: auto; }
.bg-board svg text { font: 13px sans-serif; fill: #222; }
.bg-board svg .active-frame { stroke: #f0b400; stroke-width: 3; fill: none; }
.bg-board svg .viewing-frame { stroke: #2a7; stroke-width: 3; fill: none; stroke-dasharray: 8 4; }
.bg-board svg .bg-viewing-mark { fill: #2a7; font-weight: bold; }
.bg-legend { margin: 6px 0; padding-left: 18px; font-size: 0.9em; color: var(--muted); }
.bg-final { border-collapse: collapse; }
.bg-final th, .bg-final td { border: 1px solid var(--line); padding: 2px 8px; text-align: right; }
.bg-final th:first-child, .bg-final td:first-child { text-align: left; }
`;

  function text(x, y, content, attrs) {
    return svg("text", { x, y, ...(attrs || {}) }, String(content));
  }

  /* A box with a label centred in it; the label is squeezed to the box if it is wider (see fitLabels). */
  function boxed(x, y, width, height, content, boxAttrs, labelAttrs) {
    const g = svg("g", { class: "bg-boxed" });
    g.append(svg("rect", { x, y, width, height, ...(boxAttrs || {}) }));
    g.append(text(x + width / 2, y + height / 2, content, { "text-anchor": "middle", "dominant-baseline": "central",
      "data-fit": width - 6, ...(labelAttrs || {}) }));
    return g;
  }

  /* Labels longer than their room are drawn narrower rather than cut or spilling over their box. */
  function fitLabels(root) {
    for (const label of root.querySelectorAll("text[data-fit]")) {
      const room = Number(label.dataset.fit);
      if (label.getComputedTextLength() > room) {
        label.setAttribute("textLength", String(room));
        label.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
  }

  function entrant(s, ctx) {
    return ctx && ctx.seatName ? `${ctx.seatName(s.seat)} (seat ${s.seat})` : `Seat ${s.seat}`;
  }

  function header(view) {
    const g = svg("g", { class: "bg-header" });
    const final = view.final_round ? ` (final round ${view.final_round})` : "";
    g.append(text(10, 18, `Round ${view.round}${final}, ${view.phase}` + (view.phase === "turns" ? `, lap ${view.lap}` : "")));
    COLOURS.forEach((colour, i) => {
      const value = view.dice ? view.dice[colour] : null;
      const x = 10 + i * 34;
      g.append(svg("rect", { x, y: 26, width: 28, height: 28, rx: 5, fill: FILL[colour], class: "bg-die",
        "data-colour": colour, "data-value": value === null ? "" : value }));
      g.append(text(x + 10, 45, value === null ? "·" : value, { style: `fill:${INK[colour]};font-weight:bold` }));
    });
    view.piles.forEach((pile, p) => {
      const x = 200 + p * 120;
      g.append(svg("rect", { x, y: 22, width: 40, height: 34, rx: 3, fill: pile.top ? FILL[pile.top] : "#ddd",
        stroke: "#333", class: "bg-pile", "data-pile": p, "data-size": pile.size, "data-top": pile.top || "" }));
      g.append(text(x + 44, 44, `pile ${p + 1}: ${pile.size}`));
    });
    g.append(text(450, 44, `extra ${view.extra_pile} · discard ${view.discard_size} · statues ${view.statue_stack.join(",") || "none"}`,
      { class: "bg-extra", "data-extra": view.extra_pile }));
    return g;
  }

  function seatArea(view, s, y, ctx) {
    const viewing = ctx && ctx.viewerSeat === s.seat;
    const g = svg("g", { class: viewing ? "bg-seat viewing" : "bg-seat", "data-seat": s.seat, "data-score": s.score,
      transform: `translate(0 ${y})` });
    if (view.active === s.seat) g.append(svg("rect", { x: 2, y: 0, width: 796, height: 206, class: "active-frame" }));
    if (viewing) {
      g.append(svg("rect", { x: 5, y: 3, width: 790, height: 200, class: "viewing-frame" }));
      g.append(text(790, 16, "your view", { "text-anchor": "end", class: "bg-viewing-mark" }));
    }
    g.append(text(10, 16, `${entrant(s, ctx)}${s.start ? ", start player" : ""}: score ${s.score}, ${s.guilders} guilders, majorities: ${s.majorities.join(", ") || "none"}`,
      { class: "bg-title", "data-fit": viewing ? 700 : 780 }));
    // workers and threats
    COLOURS.forEach((colour, i) => {
      g.append(svg("circle", { cx: 16 + i * 26, cy: 32, r: 9, fill: FILL[colour], class: "bg-worker", "data-colour": colour, "data-count": s.workers[colour] }));
      g.append(text(12 + i * 26, 52, s.workers[colour]));
      const threats = s.threats[colour];
      if (threats) {
        const x = 150 + i * 40;
        const mark = svg("g", { class: "bg-threat", "data-colour": colour, "data-count": threats });
        mark.append(svg("polygon", { points: `${x},42 ${x + 8},26 ${x + 16},42`, fill: FILL[colour], stroke: "#000" }));
        mark.append(text(x + 18, 40, `×${threats}`, { class: "bg-threat-count" }));
        mark.append(svg("title", {}, `${threats} ${colour} threat marker${threats === 1 ? "" : "s"}`));
        g.append(mark);
      }
    });
    // reputation track
    view.reputation_points.forEach((points, step) => {
      const x = 360 + step * 32;
      const here = s.reputation === step;
      g.append(svg("rect", { x, y: 24, width: 30, height: 20, fill: here ? "#f0b400" : "#eee", stroke: "#999",
        class: here ? "bg-reputation here" : "bg-reputation", "data-step": step }));
      g.append(text(x + 8, 38, points));
    });
    // canals
    [0, 1].forEach((section) => {
      const built = s.canals[section];
      g.append(text(10, 78 + section * 26, "AB"[section]));
      view.canal_colours[section].forEach((colour, k) => {
        const x = 26 + k * 34;
        const space = boxed(x, 64 + section * 26, 30, 20, view.canal_costs[k], { fill: k < built ? FILL[colour] : "#fff",
          stroke: FILL[colour], "stroke-width": k === 2 ? 3 : 1 }, k < built ? { style: `fill:${INK[colour]}` } : {});
        space.firstChild.setAttribute("class", k < built ? "bg-canal built" : "bg-canal");
        space.firstChild.dataset.section = section;
        space.firstChild.dataset.space = k + 1;
        g.append(space);
      });
    });
    s.statues.forEach((value, i) => {
      g.append(svg("polygon", { points: `${210 + i * 30},70 ${225 + i * 30},62 ${235 + i * 30},78 ${220 + i * 30},92 ${205 + i * 30},84`,
        fill: "#bbb", stroke: "#555", class: "bg-statue", "data-value": value }));
      g.append(text(215 + i * 30, 82, value));
    });
    // houses and persons
    s.houses.forEach((house, i) => {
      const x = 10 + i * 66;
      const attrs = { class: "bg-house", "data-colour": house.colour, "data-person": house.person ? house.person.id : "" };
      const hg = svg("g", attrs);
      hg.append(svg("rect", { x, y: 128, width: 60, height: 40, fill: FILL[house.colour], stroke: "#333" }));
      hg.append(svg("polygon", { points: `${x},128 ${x + 30},114 ${x + 60},128`, fill: FILL[house.colour], stroke: "#333" }));
      if (house.person) {
        const turn = house.rotated ? ` rotate(90 ${x + 30} 148)` : "";
        const person = boxed(x + 4, 132, 52, 32, house.person.person, { fill: "#fffbe8", stroke: FILL[house.person.colour],
          "stroke-width": 3 });
        if (turn) person.setAttribute("transform", turn.trim());
        hg.append(person);
      }
      g.append(hg);
    });
    // hand
    const hand = svg("g", { class: "bg-hand", "data-size": s.hand_size, "data-hidden": s.hand === null ? "1" : "" });
    if (s.hand !== null) {
      s.hand.forEach((card, i) => {
        const shown = boxed(10 + i * 70, 176, 66, 24, card.person, { fill: FILL[card.colour] }, { style: `fill:${INK[card.colour]}` });
        shown.firstChild.setAttribute("class", "bg-card");
        shown.firstChild.dataset.card = card.id;
        hand.append(shown);
      });
      let k = 0;
      for (const colour of COLOURS) {
        for (let n = 0; n < (s.blind ? s.blind[colour] : 0); n += 1, k += 1) {
          // drawn blind this phase: only the colour is known until the drawing ends
          hand.append(svg("rect", { x: 10 + s.hand.length * 70 + k * 22, y: 176, width: 18, height: 24,
            fill: FILL[colour], stroke: "#000", "stroke-dasharray": "3 2", class: "bg-blind", "data-colour": colour }));
        }
      }
    } else {
      let i = 0;
      for (const colour of COLOURS) {
        for (let k = 0; k < s.hand_colours[colour]; k += 1, i += 1) {
          hand.append(svg("rect", { x: 10 + i * 22, y: 176, width: 18, height: 24, fill: FILL[colour], class: "bg-back", "data-colour": colour }));
        }
      }
    }
    g.append(hand);
    return g;
  }

  /* What the marks of a play area mean, under the picture. */
  function legend(view) {
    const steps = view.reputation_points;
    const item = (key, words) => html("li", { "data-legend": key }, words);
    return html("ul", { class: "bg-legend" },
      item("workers", "Discs: the seat's workers of each colour, how many under each."),
      item("threats", "Triangles: threat markers of a colour (×count); the third of a colour brings that colour's penalty."),
      item("reputation", `Boxes ${steps[0]}–${steps[steps.length - 1]}: the reputation track, a box per step showing the points ` +
        "it scores at the end; the seat's step is gold."),
      item("canals", "Rows A and B: the two canal sections, a box per space with its cost in guilders, filled in its colour " +
        "once built; space 3 is framed thick (points at the end), the fifth brings a statue."),
      item("statues", "Grey pentagons: statues taken, with their points."));
  }

  function draw(board, view, ctx) {
    const height = 70 + view.seats.length * 214;
    const root = svg("svg", { viewBox: `0 0 800 ${height}`, width: 800, height, class: "bg-svg" }, header(view));
    view.seats.forEach((s, i) => root.append(seatArea(view, s, 66 + i * 214, ctx)));
    const final = finalScoring(view, ctx);
    board.replaceChildren(html("div", { class: "bg-board" }, root, legend(view), final));
    fitLabels(root);
  }

  /* The end: the view's ``final_scoring`` rows (the start score and what play gathered, then final
   * scoring part by part, B21), each seat's final score and rank with the winner marked, and the
   * tie-break (B22: more guilders; still equal, the rank is shared). */
  function finalScoring(view, ctx) {
    if (!view.final_scoring || !ctx || !ctx.replay) return "";
    const seats = ctx.replay.seats;
    const tied = seats.filter((a) => seats.some((b) => b !== a && b.score === a.score));
    const tieBreak = tied.length
      ? `Equal scores are ranked by guilders (B22): ${tied.map((seat) => `${seat.name} ${view.seats[seat.seat].guilders}`).join(", ")}; still equal, the rank is shared.`
      : "No equal scores: ranks follow the scores (ties would go to more guilders, then be shared).";
    return html("div", { class: "bg-end" },
      html("h3", {}, "Final score"),
      viewer.scoreTable(view.final_scoring, seats, "bg-final",
        [["guilders", "guilders (break ties)", (seat) => view.seats[seat.seat].guilders]]),
      html("p", { class: "bg-tie-break" }, tieBreak));
  }

  viewer.registerGame("bruges", { draw, css: CSS });
})();
