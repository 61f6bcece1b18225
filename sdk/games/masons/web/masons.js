/* Masons' drawing module for the smtourney replay viewer (docs/web-viewer.md).
 *
 * Draws one position (the plugin's ``view``) into the viewer's board area: an SVG of the
 * triangular board (spaces tinted by region, the shore, walls, towers by colour, houses on the
 * land, completed cities outlined with their houses and palaces, this turn's wall marked), the
 * dice and supplies, and one panel per seat (score, hand: its cards in the organiser's view and
 * for the seat whose view this is, only their number otherwise). Everything comes from the view.
 * The board is labelled as the move list names it: points as (row,index), spaces and lines by number;
 * cards by their readable names.
 */
(function () {
  "use strict";

  const viewer = window.smtourney;
  if (!viewer || typeof viewer.registerGame !== "function") {
    throw new Error("masons.js draws for the smtourney viewer: load viewer.js before it");
  }
  const { html, svg } = viewer;

  const SCALE = 100;
  const PAD = 30;
  const REGION_FILL = { west: "#f4efe1", middle: "#e8f1e4", east: "#e6edf6" };
  const TOWER = { black: "#222", white: "#fafafa", grey: "#8c8c8c" };
  const HOUSE = { blue: "#2a62c9", green: "#2e9e48", yellow: "#e9c31c", red: "#cc3131", pink: "#ee82b8" };

  const CSS = `
.ms-board { display: flex; flex-direction: column; gap: 12px; }
.ms-panel { background: var(--paper); border: 1px solid var(--line); padding: 8px 12px; }
.ms-status { display: flex; flex-wrap: wrap; gap: 4px 18px; align-items: baseline; }
.ms-status .value { font-weight: bold; font-variant-numeric: tabular-nums; }
.ms-map { overflow-x: auto; }
.ms-map svg { width: 100%; max-width: 900px; min-width: 640px; height: auto; display: block; margin: 0 auto; }
.ms-space { stroke: #c9c2b0; stroke-width: 1; }
.ms-space.city { fill-opacity: 1; }
.ms-line { stroke: transparent; }
.ms-wall { stroke: #6b4a2b; stroke-width: 7; stroke-linecap: round; }
.ms-wall.new { stroke: #e07b00; }
.ms-outline { fill: none; stroke: #4d2f14; stroke-width: 2; stroke-dasharray: 6 4; }
.ms-shore { stroke: #3d8fd6; stroke-width: 10; stroke-linecap: round; opacity: 0.35; }
.ms-tower { stroke: #000; stroke-width: 2; }
.ms-house { stroke: #222; stroke-width: 1; }
.ms-city-label { font: bold 15px sans-serif; fill: #4d2f14; }
.ms-cities { display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 0.88em; margin-top: 6px; }
.ms-city.scored { font-weight: bold; }
.ms-piece { display: inline-block; width: 10px; height: 10px; border: 1px solid #222; margin: 0 1px; vertical-align: middle; }
.ms-piece.palace { width: 13px; height: 13px; border-radius: 3px 3px 0 0; }
.ms-seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 12px; }
.ms-seat { background: var(--paper); border: 1px solid var(--line); border-top: 4px solid var(--seat, var(--line)); padding: 8px 10px; }
.ms-seat.viewing { background: #fffdf3; }
.ms-seat header { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 4px; }
.ms-seat header strong { margin-right: auto; }
.ms-stats .value { font-weight: bold; font-variant-numeric: tabular-nums; }
.ms-hand { margin-top: 6px; font-size: 0.85em; display: flex; flex-wrap: wrap; gap: 3px; }
.ms-card { padding: 0 6px; border-radius: 3px; background: #eef1f7; border: 1px solid #c7cedb; }
.ms-label { font: 11px sans-serif; fill: #555; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.ms-label.point { fill: #7a4a14; }
.ms-label.line { fill: #6b6b9a; font-size: 10px; }
.ms-final { border-collapse: collapse; margin: 4px 0; }
.ms-final th, .ms-final td { border: 1px solid var(--line); padding: 2px 8px; text-align: right; }
.ms-final th:first-child, .ms-final td:first-child { text-align: left; }
.badge.ms-active { background: #f0b400; color: #1d2330; }
.badge.ms-deciding { background: #1d2330; color: #fff; }
`;

  function geometry(board) {
    const maxY = Math.max(...board.points.map((p) => p.y));
    const at = board.points.map((p) => [PAD + p.x * SCALE, PAD + (maxY - p.y) * SCALE]);
    const width = PAD * 2 + Math.max(...board.points.map((p) => p.x)) * SCALE;
    const height = PAD * 2 + maxY * SCALE;
    return { at, width, height };
  }

  function centroid(at, corners) {
    const xs = corners.map((c) => at[c][0]);
    const ys = corners.map((c) => at[c][1]);
    return [xs.reduce((a, b) => a + b) / 3, ys.reduce((a, b) => a + b) / 3];
  }

  /* Labels for what the move list names: each point's (row,index), each space's and line's number. */
  function labels(board, at) {
    const found = [];
    board.points.forEach((point, p) => {
      const [x, y] = at[p];
      found.push(svg("text", { class: "ms-label point", x: x + 11, y: y - 8, "data-point": p },
        `${Math.floor(p / 7)},${p % 7}`));
    });
    for (const space of board.spaces) {
      const [x, y] = centroid(at, space.corners);
      found.push(svg("text", { class: "ms-label space", x, y: y + 18, "text-anchor": "middle", "data-space": space.id },
        String(space.id)));
    }
    for (const line of board.lines) {
      const [a, b] = [at[line.a], at[line.b]];
      found.push(svg("text", { class: "ms-label line", x: (a[0] + b[0]) / 2, y: (a[1] + b[1]) / 2 + 4,
        "text-anchor": "middle", "data-line": line.id }, String(line.id)));
    }
    return found;
  }

  function map(view) {
    const board = view.board;
    const { at, width, height } = geometry(board);
    const cityOf = {};
    for (const city of view.cities) for (const sp of city.spaces) cityOf[sp] = city.index;
    const layers = [];
    for (const space of board.spaces) {
      const points = space.corners.map((c) => at[c].join(",")).join(" ");
      const city = cityOf[space.id];
      layers.push(svg("polygon", {
        class: "ms-space" + (city === undefined ? "" : " city"),
        points,
        fill: city === undefined ? REGION_FILL[space.region] : "#d9c7a7",
        "data-space": space.id,
        "data-region": space.region,
        "data-city": city === undefined ? "" : city,
      }));
    }
    for (const line of board.lines) {
      const [a, b] = [at[line.a], at[line.b]];
      const shore = board.points[line.a].shore && board.points[line.b].shore && line.edge;
      if (shore) layers.push(svg("line", { class: "ms-shore", x1: a[0], y1: a[1], x2: b[0], y2: b[1] }));
    }
    const walls = new Set(view.walls);
    for (const line of board.lines) {
      if (!walls.has(line.id)) continue;
      const [a, b] = [at[line.a], at[line.b]];
      layers.push(svg("line", {
        class: "ms-wall" + (line.id === view.wall ? " new" : ""),
        x1: a[0], y1: a[1], x2: b[0], y2: b[1],
        "data-line": line.id,
      }));
    }
    for (const city of view.cities) {
      for (const id of city.border) {
        const line = board.lines[id];
        const [a, b] = [at[line.a], at[line.b]];
        layers.push(svg("line", { class: "ms-outline", x1: a[0], y1: a[1], x2: b[0], y2: b[1], "data-outline": city.index }));
      }
      const [x, y] = centroid(at, board.spaces[city.spaces[0]].corners);
      layers.push(svg("text", { class: "ms-city-label", x: x - 5, y: y + 5 }, String(city.index)));
    }
    const bySpace = {};
    for (const house of view.houses) (bySpace[house.space] = bySpace[house.space] || []).push(house);
    for (const [space, houses] of Object.entries(bySpace)) {
      const [cx, cy] = centroid(at, board.spaces[space].corners);
      let n = 0;
      const total = houses.reduce((sum, h) => sum + h.count, 0);
      for (const house of houses) {
        for (let i = 0; i < house.count; i += 1, n += 1) {
          const x = cx - (total * 12) / 2 + n * 12;
          layers.push(svg("rect", {
            class: "ms-house", x, y: cy - 5, width: 10, height: 10, fill: HOUSE[house.colour],
            "data-space": space, "data-colour": house.colour,
          }));
        }
      }
    }
    for (const tower of view.towers) {
      const [x, y] = at[tower.point];
      layers.push(svg("circle", {
        class: "ms-tower", cx: x, cy: y, r: 9, fill: TOWER[tower.colour],
        "data-point": tower.point, "data-colour": tower.colour,
      }));
    }
    layers.push(...labels(board, at));
    return html("section", { class: "ms-panel ms-map" },
      svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "the board" }, ...layers));
  }

  function piece(colour, palace) {
    return html("span", { class: "ms-piece" + (palace ? " palace" : ""), style: `background:${HOUSE[colour]}`, title: `${colour} ${palace ? "palace" : "house"}` });
  }

  function cityList(view) {
    if (!view.cities.length) return null;
    return html("div", { class: "ms-cities" }, ...view.cities.map((city) => {
      const pieces = [];
      for (const [colour, n] of Object.entries(city.palaces)) for (let i = 0; i < n; i += 1) pieces.push(piece(colour, true));
      for (const [colour, n] of Object.entries(city.houses)) for (let i = 0; i < n; i += 1) pieces.push(piece(colour, false));
      return html("span", { class: "ms-city" + (city.scored ? " scored" : ""), "data-city": city.index,
        "data-size": city.spaces.length }, `city ${city.index} (${city.spaces.length} space${city.spaces.length === 1 ? "" : "s"}) `, ...pieces);
    }));
  }

  function stat(name, label, value) {
    return html("span", { "data-stat": name }, `${label} `, html("span", { class: "value" }, String(value)));
  }

  function status(view) {
    const s = view.supply;
    const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
    const parts = [
      stat("turn", "turn", view.turn),
      html("span", {}, view.phase + (view.ending ? " (last turn)" : "")),
      stat("walls", "walls left", s.walls),
      stat("towers", "towers left", sum(s.towers)),
      stat("houses", "houses left", sum(s.houses)),
      stat("palaces", "palaces left", sum(s.palaces)),
      stat("draw", "draw pile", view.draw_size),
    ];
    if (view.roll) parts.push(html("span", { "data-roll": "" }, `dice: ${view.roll.tower} tower, ${view.roll.house_a} / ${view.roll.house_b} houses`));
    return html("section", { class: "ms-panel" }, html("div", { class: "ms-status" }, ...parts), cityList(view));
  }

  function seatPanel(view, seat, ctx) {
    const s = view.seats[seat];
    const header = html("header", {}, ctx.seatChip(seat), html("strong", {}, ctx.seatName(seat)));
    if (view.phase !== "over" && view.active === seat) header.append(html("span", { class: "badge ms-active" }, "turn"));
    if (view.deciding && view.deciding.seat === seat) header.append(html("span", { class: "badge ms-deciding" }, view.deciding.kind));
    header.append(...ctx.seatBadges(seat));
    const stats = html("div", { class: "ms-stats" }, stat("score", "score", s.score), " · ", stat("hand", "cards", s.hand_size));
    const hand = s.hand === null
      ? html("div", { class: "ms-hand hidden" }, `${s.hand_size} cards, hidden`)
      : html("div", { class: "ms-hand" }, ...s.hand.map((c) =>
        html("span", { class: "ms-card", "data-card": c.card, "data-count": c.count, title: c.card },
          c.count > 1 ? `${c.title} ×${c.count}` : c.title)));
    const classes = ["ms-seat", "seat-" + seat];
    if (ctx.viewerSeat === seat) classes.push("viewing");
    return html("article", { class: classes.join(" "), "data-seat": seat, "data-score": s.score }, header, stats, hand);
  }

  /* The end: the view's ``final_scoring`` rows (what each seat scored in every scoring round, M6, and
   * in the final scoring, M4), each seat's final score, cards in hand and rank with the winner marked,
   * and the tie-break (M4: most cards in hand; still equal, a shared rank). */
  function finalScoring(view, ctx) {
    if (!view.final_scoring || !ctx.replay) return null;
    const seats = ctx.replay.seats;
    const cards = (seat) => view.seats[seat.seat].hand_size;
    const tied = seats.filter((a) => seats.some((b) => b !== a && b.score === a.score));
    const why = tied.length
      ? `Equal scores are ranked by the cards left in hand, more first (M4): ${tied.map((seat) => `${seat.name} ${cards(seat)}`).join(", ")}; still equal, the rank is shared.`
      : "No equal scores: the ranks follow the scores.";
    return html("section", { class: "ms-panel ms-end" },
      html("h2", {}, "Final score"),
      viewer.scoreTable(view.final_scoring, seats, "ms-final", [["hand", "cards in hand (break ties)", cards]]),
      html("p", { class: "ms-tie-break" }, why));
  }

  function draw(board, view, ctx) {
    const seats = html("div", { class: "ms-seats" }, ...view.seats.map((_, seat) => seatPanel(view, seat, ctx)));
    board.replaceChildren(html("div", { class: "ms-board" }, status(view), finalScoring(view, ctx) || "", map(view), seats));
  }

  viewer.registerGame("masons", { draw, css: CSS });
})();
