/* Saint Malo's drawing module for the smtourney replay viewer (docs/web-viewer.md).
 *
 * Draws one position (the plugin's ``view``, see docs/replay-format.md) into the viewer's board area:
 * the turn, the dice, the pirate track with every attack so far, and each seat's city as a 7 × 7 grid
 * of squares with its numbers. Everything is built from the view alone.
 */
(function () {
  "use strict";

  const viewer = window.smtourney;
  if (!viewer || typeof viewer.registerGame !== "function") {
    throw new Error("saint_malo.js draws for the smtourney viewer: load viewer.js before it");
  }
  const { html, svg } = viewer;

  const CELL = 40;
  const MARGIN = 20;
  const SIZE = 7;
  const COLUMNS = "abcdefg";
  const SIDES = ["top", "right", "bottom", "left"];
  const PEOPLE = {
    c: "citizen", s: "soldier", p: "priest", a: "architect", m: "merchant", j: "juggler", n: "noble",
  };
  const KINDS = { ".": "empty", T: "tower", W: "wall", X: "crate", H: "house" };

  const CSS = `
.sm-board { display: flex; flex-direction: column; gap: 12px; }
.sm-table { display: flex; flex-wrap: wrap; gap: 12px; align-items: stretch; }
.sm-panel { background: var(--paper); border: 1px solid var(--line); padding: 6px 10px; }
.sm-panel h2 { margin: 0 0 4px; font-size: 1em; }
.sm-panel.dice-panel { flex: 1 1 320px; max-width: 460px; }
.sm-panel.pirate-panel { flex: 1 1 320px; }
.sm-status .turn { margin: 0 0 6px; font-weight: bold; }

.sm-final { border-collapse: collapse; margin: 4px 0; }
.sm-final th, .sm-final td { border: 1px solid var(--line); padding: 2px 8px; text-align: right; }
.sm-final th:first-child, .sm-final td:first-child { text-align: left; }
.cities { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 12px; }
.city { background: var(--paper); border: 1px solid var(--line); border-top: 4px solid var(--line); padding: 8px 10px; }
.city.active { border-top-color: #f0b400; box-shadow: 0 0 0 2px #f0b40055; }
.city.viewing { background: #fffdf3; }
.city header { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 4px; }
.city .stats { display: flex; flex-wrap: wrap; gap: 2px 12px; font-size: 0.88em; color: var(--muted); }
.city .stat .value { color: var(--ink); font-weight: bold; font-variant-numeric: tabular-nums; }
.city .stat.major { font-size: 1.15em; }
.city .stat.alert .value { color: var(--alert); }
.city .sides { font-size: 0.8em; color: var(--muted); }
.badge.viewer-seat { background: #1f5fbf; color: #fff; }

.city-grid { width: 100%; height: auto; display: block; margin: 4px 0; }
.city-grid .coord { font-size: 11px; fill: var(--muted); }
.cell .ground { fill: #f4ecd8; stroke: #d8ccb0; stroke-width: 0.6; }
.cell.changed .change-mark { fill: none; stroke: #f0b400; stroke-width: 3; }
.tower { fill: #8f939b; stroke: #4d5058; stroke-width: 1.2; }
.tower-door { fill: #4d5058; }
.wall { fill: #7d6e62; stroke: #4a3f37; stroke-width: 1; }
.bricks { stroke: #4a3f37; stroke-width: 1.2; fill: none; }
.crate { fill: #d3a15a; stroke: #7a5520; stroke-width: 1.5; }
.crate-slats { stroke: #7a5520; stroke-width: 1.5; }
.roof { fill: #b5523b; stroke: #7d3324; }
.house { fill: #f7e3c4; stroke: #7d3324; }
.house-door { fill: #7d3324; }
.church { fill: #ece4f7; stroke: #5b3f8c; stroke-width: 1.5; }
.church-cross { stroke: #5b3f8c; stroke-width: 2; }
.church-size { font-size: 17px; font-weight: bold; fill: #5b3f8c; }
.person { stroke: #0006; stroke-width: 1; }
.person-initial { font-size: 16px; font-weight: bold; fill: #fff; pointer-events: none; }
.person-citizen { fill: #5a7d9a; }
.person-soldier { fill: #c0392b; }
.person-priest { fill: #6c3483; }
.person-architect { fill: #117a65; }
.person-merchant { fill: #b7950b; }
.person-juggler { fill: #d35400; }
.person-noble { fill: #1a237e; }
.side { stroke-width: 4; stroke-linecap: round; }
.side-complete { stroke: #2e9e4f; }
.side-destroyed { stroke: var(--alert); stroke-dasharray: 6 4; }

.dice { width: 100%; max-width: 440px; height: auto; display: block; }
.die-body { fill: #fff; stroke: #9aa0ad; stroke-width: 1.5; }
.die.kept .die-body { stroke: #1f5fbf; stroke-width: 4; fill: #eef4ff; }
.die.rotated .die-body { stroke: #d35400; stroke-width: 3; stroke-dasharray: 5 3; }
.die.unrolled { opacity: 0.35; }
.die-face { font-size: 11px; fill: var(--muted); }
.die-mark { font-size: 10px; fill: var(--ink); font-weight: bold; }
.dice-legend .key { display: inline-block; padding: 0 4px; border-radius: 4px; }
.dice-legend .key.kept { border: 3px solid #1f5fbf; background: #eef4ff; }
.dice-legend .key.rotated { border: 2px dashed #d35400; }
.f-log { fill: #8b5a2b; }
.f-crate { fill: #d3a15a; stroke: #7a5520; stroke-width: 1.5; }
.f-wall { fill: #7d6e62; }
.f-line { stroke: #3d332c; stroke-width: 1.5; fill: none; }
.f-cross { stroke: #6c3483; stroke-width: 5; fill: none; }
.f-head { fill: #caa27a; }
.f-swords { stroke: #b3261e; stroke-width: 3.5; fill: none; }

.pirates { max-width: 100%; height: auto; display: block; }
.pirates .strength { font-size: 12px; font-weight: bold; fill: var(--muted); }
.pirate-box { fill: #fff; stroke: #9aa0ad; }
.pirate-box.marked { fill: #b3261e; stroke: #7a1a14; }
.pirate-row.next .strength { fill: var(--alert); }
.pirate-row.next .pirate-box { stroke: var(--alert); stroke-width: 1.5; }
.attacks { margin: 4px 0; padding-left: 18px; font-size: 0.85em; }
`;

  // --- cities -------------------------------------------------------------------------------------

  function squareName(index) {
    return COLUMNS[index % SIZE] + (Math.floor(index / SIZE) + 1);
  }

  function cellKind(code) {
    if (code in KINDS) return KINDS[code];
    if (code >= "1" && code <= "5") return "church";
    return PEOPLE[code] ? "person" : "unknown";
  }

  function cellLabel(code) {
    const kind = cellKind(code);
    if (kind === "church") return "church of size " + code;
    if (kind === "person") return PEOPLE[code];
    return kind;
  }

  /* One square's drawing, in a CELL × CELL box at the origin. */
  function cellDrawing(code) {
    switch (cellKind(code)) {
      case "tower":
        return [
          svg("path", { class: "tower", d: "M8 36 V12 H13 V7 H18 V12 H22 V7 H27 V12 H32 V36 Z" }),
          svg("rect", { class: "tower-door", x: 17, y: 26, width: 6, height: 10 }),
        ];
      case "wall":
        return [
          svg("rect", { class: "wall", x: 1, y: 1, width: CELL - 2, height: CELL - 2 }),
          svg("path", {
            class: "bricks",
            d: "M1 14 H39 M1 27 H39 M14 1 V14 M30 1 V14 M8 14 V27 M24 14 V27 M14 27 V39 M30 27 V39",
          }),
        ];
      case "crate":
        return [
          svg("rect", { class: "crate", x: 8, y: 8, width: 24, height: 24 }),
          svg("path", { class: "crate-slats", d: "M8 8 L32 32 M32 8 L8 32" }),
        ];
      case "house":
        return [
          svg("polygon", { class: "roof", points: "5,20 20,6 35,20" }),
          svg("rect", { class: "house", x: 10, y: 20, width: 20, height: 15 }),
          svg("rect", { class: "house-door", x: 17, y: 26, width: 6, height: 9 }),
        ];
      case "church":
        return [
          svg("polygon", { class: "church", points: "6,36 6,18 20,8 34,18 34,36" }),
          svg("path", { class: "church-cross", d: "M20 1 V9 M16 4 H24" }),
          svg("text", { class: "church-size", x: 20, y: 33, "text-anchor": "middle" }, code),
        ];
      case "person":
        return [
          svg("circle", { class: "person person-" + PEOPLE[code], cx: 20, cy: 20, r: 14 }),
          svg("text", { class: "person-initial", x: 20, y: 26, "text-anchor": "middle" }, code.toUpperCase()),
        ];
      case "unknown":
        return [svg("text", { x: 20, y: 26, "text-anchor": "middle" }, code)];
      default:
        return [];
    }
  }

  function cityDrawing(city, previous) {
    const span = SIZE * CELL;
    const root = svg("svg", {
      class: "city-grid",
      viewBox: `0 0 ${span + MARGIN + 6} ${span + MARGIN + 6}`,
      role: "img",
    });
    for (let i = 0; i < SIZE; i += 1) {
      root.append(
        svg("text", { class: "coord", x: MARGIN + i * CELL + CELL / 2, y: 13, "text-anchor": "middle" }, COLUMNS[i]),
        svg("text", { class: "coord", x: 9, y: MARGIN + i * CELL + CELL / 2 + 4, "text-anchor": "middle" }, String(i + 1)),
      );
    }
    for (let index = 0; index < SIZE * SIZE; index += 1) {
      const code = city.cells[index];
      const x = MARGIN + (index % SIZE) * CELL;
      const y = MARGIN + Math.floor(index / SIZE) * CELL;
      const changed = previous !== null && previous.cells[index] !== code;
      const cell = svg(
        "g",
        {
          class: "cell cell-" + cellKind(code) + (changed ? " changed" : ""),
          transform: `translate(${x} ${y})`,
          "data-code": code,
          "data-square": squareName(index),
        },
        svg("title", {}, `${squareName(index)}: ${cellLabel(code)}`),
        svg("rect", { class: "ground", width: CELL, height: CELL }),
        ...cellDrawing(code),
      );
      if (changed) cell.append(svg("rect", { class: "change-mark", x: 1.5, y: 1.5, width: CELL - 3, height: CELL - 3 }));
      root.append(cell);
    }
    const edges = [
      [MARGIN + CELL, MARGIN - 3, MARGIN + span - CELL, MARGIN - 3],
      [MARGIN + span + 3, MARGIN + CELL, MARGIN + span + 3, MARGIN + span - CELL],
      [MARGIN + CELL, MARGIN + span + 3, MARGIN + span - CELL, MARGIN + span + 3],
      [MARGIN - 3, MARGIN + CELL, MARGIN - 3, MARGIN + span - CELL],
    ];
    city.sides.forEach((state, side) => {
      if (state !== "complete" && state !== "destroyed") return;
      const [x1, y1, x2, y2] = edges[side];
      root.append(svg("line", { class: "side side-" + state, x1, y1, x2, y2, "data-side": SIDES[side] },
        svg("title", {}, `${SIDES[side]} side ${state}`)));
    });
    return root;
  }

  /* A number with its label; ``label`` may be [singular, plural]. */
  function stat(name, label, value, extra) {
    const words = Array.isArray(label) ? label[value === 1 || value === -1 ? 0 : 1] : label;
    return html("span", { class: "stat" + (extra ? " " + extra : ""), "data-stat": name },
      html("span", { class: "value" }, String(value)), " " + words);
  }

  function cityCard(view, seat, ctx) {
    const city = view.cities[seat];
    const header = html("header", {}, ctx.seatChip(seat), html("strong", {}, ctx.seatName(seat)));
    if (view.to_move === seat) header.append(html("span", { class: "badge to-move" }, "to move"));
    if (ctx.viewerSeat === seat) header.append(html("span", { class: "badge viewer-seat" }, "this view's seat"));
    header.append(...ctx.seatBadges(seat));
    const stats = html("div", { class: "stats" },
      stat("vp", "VP on the track", city.vp, "major"),
      stat("score", view.phase === "over" ? "final score" : "score if it ended now", city.score, "major"),
      stat("coins", ["coin", "coins"], city.coins),
      stat("logs", ["log", "logs"], city.logs),
      stat("walls", ["wall", "walls"], city.walls),
      stat("defence", "defence", city.defence),
      stat("cannons", ["cannon lost", "cannons lost"], city.cannons_lost, city.cannons_lost ? "alert" : ""),
      stat("empty", "empty", city.empty),
    );
    const sides = html("div", { class: "sides" },
      "sides: " + city.sides.map((state, i) => `${SIDES[i]} ${state}`).join(" · "));
    const before = ctx.previous && ctx.previous.cities ? ctx.previous.cities[seat] : null;
    return html(
      "article",
      {
        class: "city" + (view.to_move === seat ? " active" : "") + (ctx.viewerSeat === seat ? " viewing" : ""),
        "data-seat": seat,
        "data-vp": city.vp,
        "data-score": city.score,
        "data-walls": city.walls,
      },
      header, stats, cityDrawing(city, before || null), sides,
    );
  }

  // --- dice -----------------------------------------------------------------------------------------

  const FACES = {
    log: () => [svg("rect", { class: "f-log", x: 10, y: 19, width: 28, height: 10, rx: 5 })],
    crate: () => [
      svg("rect", { class: "f-crate", x: 14, y: 12, width: 20, height: 20 }),
      svg("path", { class: "f-line", d: "M14 12 L34 32 M34 12 L14 32" }),
    ],
    wall: () => [
      svg("rect", { class: "f-wall", x: 10, y: 14, width: 28, height: 18 }),
      svg("path", { class: "f-line", d: "M10 23 H38 M19 14 V23 M29 14 V23 M24 23 V32" }),
    ],
    cross: () => [svg("path", { class: "f-cross", d: "M24 10 V36 M15 18 H33" })],
    head: () => [
      svg("circle", { class: "f-head", cx: 24, cy: 17, r: 7 }),
      svg("path", { class: "f-head", d: "M12 36 Q24 20 36 36 Z" }),
    ],
    swords: () => [svg("path", { class: "f-swords", d: "M12 12 L36 36 M36 12 L12 36 M9 31 L17 39 M39 31 L31 39" })],
  };

  /* The five dice: a die not rolled yet this turn is blank (its face is left from the last turn);
   * under each die its face, and below that whether it was kept or turned, which its frame shows too. */
  function diceDrawing(view) {
    const root = svg("svg", { class: "dice", viewBox: "0 0 290 88", role: "img" });
    const unrolled = view.rolls === 0;
    view.dice.forEach((face, i) => {
      const kept = view.kept[i];
      const turned = view.rotated[i];
      const marks = [kept ? "kept" : "", turned ? "turned" : ""].filter(Boolean).join(", ");
      const die = svg("g", {
        class: "die" + (kept ? " kept" : "") + (turned ? " rotated" : "") + (unrolled ? " unrolled" : ""),
        transform: `translate(${6 + i * 57} 4)`,
        "data-die": i,
        "data-face": unrolled ? "" : face,
        "data-kept": kept,
        "data-rotated": turned,
      },
      svg("title", {}, unrolled ? `die ${i + 1}: not rolled yet this turn` : `die ${i + 1}: ${face}${marks ? ", " + marks : ""}`),
      svg("rect", { class: "die-body", width: 48, height: 48, rx: 7 }),
      ...(unrolled ? [] : FACES[face] ? FACES[face]() : [svg("text", { x: 24, y: 30, "text-anchor": "middle" }, face)]),
      svg("text", { class: "die-face", x: 24, y: 64, "text-anchor": "middle" }, unrolled ? "not rolled" : face),
      );
      if (marks) die.append(svg("text", { class: "die-mark", x: 24, y: 78, "text-anchor": "middle" }, marks));
      root.append(die);
    });
    const notes = [`rolls this turn: ${view.rolls}`];
    if (view.chosen) notes.push(`chosen: ${view.chosen}`);
    const legend = html("p", { class: "note dice-legend" },
      html("span", { class: "key kept" }, "kept"), " frame: kept at the last roll · ",
      html("span", { class: "key rotated" }, "turned"), " frame: turned this turn · faded and blank: not rolled yet this turn");
    return [root, html("p", { class: "note" }, notes.join(" · ")), legend];
  }

  // --- pirates ------------------------------------------------------------------------------------

  function pirateDrawing(view, ctx) {
    const pirates = view.pirates;
    const box = 16;
    const width = 40 + pirates.per_row * (box + 3);
    const height = pirates.strengths.length * (box + 4) + 2;
    const root = svg("svg", {
      class: "pirates",
      viewBox: `0 0 ${width} ${height}`,
      width: width * 1.5,
      height: height * 1.5,
      role: "img",
      "data-boxes": pirates.boxes,
    });
    pirates.strengths.forEach((strength, row) => {
      const y = 1 + row * (box + 4);
      const filled = Math.max(0, Math.min(pirates.per_row, pirates.boxes - row * pirates.per_row));
      const next = strength === pirates.next_attack && filled < pirates.per_row;
      const line = svg("g", { class: "pirate-row" + (next ? " next" : "") + (filled === pirates.per_row ? " attacked" : "") },
        svg("title", {}, `attack of strength ${strength}: ${filled} of ${pirates.per_row} boxes marked`),
        svg("text", { class: "strength", x: 26, y: y + 13, "text-anchor": "end" }, String(strength)),
      );
      for (let i = 0; i < pirates.per_row; i += 1) {
        line.append(svg("rect", {
          class: "pirate-box" + (i < filled ? " marked" : ""),
          x: 34 + i * (box + 3), y, width: box, height: box, rx: 2,
          "data-marked": i < filled,
        }));
      }
      root.append(line);
    });
    const attacks = view.attacks.map((attack) => {
      const below = attack.defences
        .map((defence, seat) => (defence < attack.strength ? ctx.seatName(seat) : null))
        .filter((name) => name !== null);
      return html("li", {},
        `turn ${attack.turn}: strength ${attack.strength}; defences ${attack.defences.join(", ")}` +
        (below.length ? `; too weak: ${below.join(", ")}` : "; every city held"));
    });
    const next = pirates.next_attack === null ? "the track is full" : `next attack: strength ${pirates.next_attack}`;
    return [root, html("p", { class: "note" }, `${pirates.boxes} boxes marked · ${next}`),
      html("ol", { class: "attacks" }, ...attacks)];
  }

  // --- the whole position -------------------------------------------------------------------------

  function status(view, ctx) {
    const who = view.to_move === null ? "" : ` · ${ctx.seatName(view.to_move)} to move`;
    return html("p", { class: "turn" }, `turn ${view.turn} · round ${view.round} · ${view.phase}${who}` +
      (view.ending && view.phase !== "over" ? " · last round" : ""));
  }

  /* The end: each seat's points by source as the rulebook scores them (the view's ``final_scoring``:
   * what the VP track gathered during play, then what the end adds), its final score, rank and the
   * winner, and how equal scores were ranked: more empty spaces first, then shared (docs/rules-saint-malo.md). */
  function finalScoring(view, ctx) {
    if (!view.final_scoring || !ctx.replay) return null;
    const seats = ctx.replay.seats;
    const tied = seats.filter((a) => seats.some((b) => b !== a && b.score === a.score));
    const why = tied.length
      ? `Equal scores are ranked by empty spaces, more first: ${tied.map((seat) => `${seat.name} ${view.cities[seat.seat].empty}`).join(", ")}; equal in both share a rank.`
      : "No equal scores: the ranks follow the scores.";
    return html("section", { class: "sm-panel sm-end" },
      html("h2", {}, "Final score"),
      viewer.scoreTable(view.final_scoring, seats, "sm-final",
        [["empty", "empty spaces (break ties)", (seat) => view.cities[seat.seat].empty]]),
      html("p", { class: "sm-tie-break" }, why));
  }

  function draw(board, view, ctx) {
    const table = html("div", { class: "sm-table" },
      html("section", { class: "sm-panel sm-status dice-panel" }, status(view, ctx), html("h2", {}, "Dice"), ...diceDrawing(view)),
      html("section", { class: "sm-panel pirate-panel" }, html("h2", {}, "Pirates"), ...pirateDrawing(view, ctx)),
    );
    const cities = html("div", { class: "cities" }, ...view.cities.map((_, seat) => cityCard(view, seat, ctx)));
    board.replaceChildren(html("div", { class: "sm-board" }, table, finalScoring(view, ctx) || "", cities));
  }

  viewer.registerGame("saint_malo", { draw, css: CSS });
})();
