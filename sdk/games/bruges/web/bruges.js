/* Bruges' drawing module for the smtourney replay viewer (docs/web-viewer.md).
 *
 * Draws one position (the plugin's ``view``) as SVG: the round, phase and the five dice; the two draw
 * piles with the colour on top, the extra pile and the statues left; one play area per seat with its
 * score, guilders, workers, threat markers, reputation track, two canal sections (built spaces filled,
 * space 3 marked), majority markers and houses (house colour, the person in it, rotated persons
 * turned), and the hand (cards in the organiser's view and the seat's own, colours otherwise).
 * Everything is built from the view alone.
 */
(function () {
  "use strict";

  const viewer = window.smtourney;
  if (!viewer || typeof viewer.registerGame !== "function") {
    throw new Error("bruges.js draws for the smtourney viewer: load viewer.js before it");
  }
  const { html, svg } = viewer;
  const FILL = { blue: "#3a6fd8", brown: "#8a5a2b", red: "#d23c3c", purple: "#7b3fa6", yellow: "#e8c300" };
  const COLOURS = ["blue", "brown", "red", "purple", "yellow"];

  const CSS = `
.bg-board { display: flex; flex-direction: column; gap: 12px; }
.bg-board svg { background: var(--paper); border: 1px solid var(--line); max-width: 100%; }
.bg-board svg text { font: 12px sans-serif; fill: #222; }
.bg-board svg .active-frame { stroke: #f0b400; stroke-width: 3; fill: none; }
`;

  function text(x, y, content, attrs) {
    return svg("text", { x, y, ...(attrs || {}) }, String(content));
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
      g.append(text(x + 10, 45, value === null ? "·" : value, { fill: "#fff", style: "fill:#fff;font-weight:bold" }));
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
    if (view.active === s.seat) g.append(svg("rect", { x: 2, y: 0, width: 796, height: 196, class: "active-frame" }));
    g.append(text(10, 16, `Seat ${s.seat}${s.start ? " (start)" : ""}: score ${s.score}, ${s.guilders} guilders, majorities: ${s.majorities.join(", ") || "none"}`,
      { class: "bg-title" }));
    // workers and threats
    COLOURS.forEach((colour, i) => {
      g.append(svg("circle", { cx: 16 + i * 26, cy: 32, r: 9, fill: FILL[colour], class: "bg-worker", "data-colour": colour, "data-count": s.workers[colour] }));
      g.append(text(12 + i * 26, 52, s.workers[colour]));
      const threats = s.threats[colour];
      for (let k = 0; k < threats; k += 1) {
        g.append(svg("polygon", { points: `${150 + i * 40 + k * 11},40 ${156 + i * 40 + k * 11},28 ${162 + i * 40 + k * 11},40`,
          fill: FILL[colour], stroke: "#000", class: "bg-threat", "data-colour": colour }));
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
        g.append(svg("rect", { x, y: 64 + section * 26, width: 30, height: 20, fill: k < built ? FILL[colour] : "#fff",
          stroke: FILL[colour], "stroke-width": k === 2 ? 3 : 1, class: k < built ? "bg-canal built" : "bg-canal",
          "data-section": section, "data-space": k + 1 }));
        g.append(text(x + 11, 78 + section * 26, view.canal_costs[k], k < built ? { style: "fill:#fff" } : {}));
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
      hg.append(svg("rect", { x, y: 118, width: 60, height: 40, fill: FILL[house.colour], stroke: "#333" }));
      hg.append(svg("polygon", { points: `${x},118 ${x + 30},104 ${x + 60},118`, fill: FILL[house.colour], stroke: "#333" }));
      if (house.person) {
        const turn = house.rotated ? ` rotate(90 ${x + 30} 138)` : "";
        hg.append(svg("rect", { x: x + 6, y: 122, width: 48, height: 32, fill: "#fffbe8", stroke: FILL[house.person.colour],
          "stroke-width": 3, transform: turn.trim() || null }));
        hg.append(text(x + 8, 142, house.person.person.slice(0, 8), { style: "font-size:10px" }));
      }
      g.append(hg);
    });
    // hand
    const hand = svg("g", { class: "bg-hand", "data-size": s.hand_size, "data-hidden": s.hand === null ? "1" : "" });
    if (s.hand !== null) {
      s.hand.forEach((card, i) => {
        hand.append(svg("rect", { x: 10 + i * 70, y: 166, width: 66, height: 24, fill: FILL[card.colour], class: "bg-card", "data-card": card.id }));
        hand.append(text(14 + i * 70, 182, card.person.slice(0, 9), { style: "fill:#fff;font-size:11px" }));
      });
      let k = 0;
      for (const colour of COLOURS) {
        for (let n = 0; n < (s.blind ? s.blind[colour] : 0); n += 1, k += 1) {
          // drawn blind this phase: only the colour is known until the drawing ends
          hand.append(svg("rect", { x: 10 + s.hand.length * 70 + k * 22, y: 166, width: 18, height: 24,
            fill: FILL[colour], stroke: "#000", "stroke-dasharray": "3 2", class: "bg-blind", "data-colour": colour }));
        }
      }
    } else {
      let i = 0;
      for (const colour of COLOURS) {
        for (let k = 0; k < s.hand_colours[colour]; k += 1, i += 1) {
          hand.append(svg("rect", { x: 10 + i * 22, y: 166, width: 18, height: 24, fill: FILL[colour], class: "bg-back", "data-colour": colour }));
        }
      }
    }
    g.append(hand);
    return g;
  }

  function draw(board, view, ctx) {
    const height = 70 + view.seats.length * 204;
    const root = svg("svg", { viewBox: `0 0 800 ${height}`, width: 800, height, class: "bg-svg" }, header(view));
    view.seats.forEach((s, i) => root.append(seatArea(view, s, 66 + i * 204, ctx)));
    const chips = html("div", { class: "bg-chips" }, ...view.seats.map((s) => ctx && ctx.seatChip ? ctx.seatChip(s.seat) : ""));
    board.replaceChildren(html("div", { class: "bg-board" }, chips, root));
  }

  viewer.registerGame("bruges", { draw, css: CSS });
})();
