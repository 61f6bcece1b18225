/* The replay viewer: steps through a smtourney replay (docs/replay-format.md) and draws each moment.
 *
 * The replay is read from the page's <script id="replay-data"> element, so the same script serves
 * the web app and exported single-file replays. The URL fragment #m=N names the moment shown, so a
 * copied link opens at the same moment.
 */
(function () {
  "use strict";

  const SVG_NS = "http://www.w3.org/2000/svg";
  const CELL = 40;
  const MARGIN = 20;
  const SIZE = 7;
  const SIDES = ["top", "right", "bottom", "left"];
  const PEOPLE = {
    c: "citizen", s: "soldier", p: "priest", a: "architect", m: "merchant", j: "juggler", n: "noble",
  };
  const KINDS = { ".": "empty", T: "tower", W: "wall", X: "crate", H: "house" };

  const replay = JSON.parse(document.getElementById("replay-data").textContent);
  const moments = replay.moments;
  const last = moments.length - 1;
  const viewer = document.getElementById("viewer");
  const $ = (id) => document.getElementById(id);

  function html(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    node.append(...children);
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    node.append(...children);
    return node;
  }

  function seatName(seat) {
    return seat === null || seat === undefined ? "chance" : replay.seats[seat].name;
  }

  /* Strikes each seat has received up to each moment, so a strike stays visible after its step. */
  const strikes = [];
  moments.forEach((moment, i) => {
    const row = i === 0 ? replay.seats.map(() => 0) : strikes[i - 1].slice();
    if (moment.step && moment.step.strike && moment.step.seat !== null) row[moment.step.seat] += 1;
    strikes.push(row);
  });

  /* A forfeited seat is shown as such from its last strike on (from the start if it never played). */
  const forfeitedFrom = replay.seats.map((seat, s) => {
    if (!seat.forfeited) return Infinity;
    const struck = moments.filter((m) => m.step && m.step.seat === s && m.step.strike);
    return struck.length ? struck[struck.length - 1].index : 0;
  });

  // --- Saint Malo --------------------------------------------------------------------------------

  function squareName(index) {
    return "abcdefg"[index % SIZE] + (Math.floor(index / SIZE) + 1);
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
    const kind = cellKind(code);
    const parts = [];
    switch (kind) {
      case "tower":
        parts.push(
          svg("path", {
            class: "tower",
            d: "M8 36 V12 H13 V7 H18 V12 H22 V7 H27 V12 H32 V36 Z",
          }),
          svg("rect", { class: "tower-door", x: 17, y: 26, width: 6, height: 10 }),
        );
        break;
      case "wall":
        parts.push(
          svg("rect", { class: "wall", x: 1, y: 1, width: CELL - 2, height: CELL - 2 }),
          svg("path", {
            class: "bricks",
            d: "M1 14 H39 M1 27 H39 M14 1 V14 M30 1 V14 M8 14 V27 M24 14 V27 M14 27 V39 M30 27 V39",
          }),
        );
        break;
      case "crate":
        parts.push(
          svg("rect", { class: "crate", x: 8, y: 8, width: 24, height: 24 }),
          svg("path", { class: "crate-slats", d: "M8 8 L32 32 M32 8 L8 32" }),
        );
        break;
      case "house":
        parts.push(
          svg("polygon", { class: "roof", points: "5,20 20,6 35,20" }),
          svg("rect", { class: "house", x: 10, y: 20, width: 20, height: 15 }),
          svg("rect", { class: "house-door", x: 17, y: 26, width: 6, height: 9 }),
        );
        break;
      case "church":
        parts.push(
          svg("polygon", { class: "church", points: "6,36 6,18 20,8 34,18 34,36" }),
          svg("path", { class: "church-cross", d: "M20 1 V9 M16 4 H24" }),
          svg("text", { class: "church-size", x: 20, y: 33, "text-anchor": "middle" }, code),
        );
        break;
      case "person":
        parts.push(
          svg("circle", { class: "person person-" + PEOPLE[code], cx: 20, cy: 20, r: 14 }),
          svg("text", { class: "person-initial", x: 20, y: 26, "text-anchor": "middle" }, code.toUpperCase()),
        );
        break;
      case "unknown":
        parts.push(svg("text", { x: 20, y: 26, "text-anchor": "middle" }, code));
        break;
    }
    return parts;
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
        svg("text", { class: "coord", x: MARGIN + i * CELL + CELL / 2, y: 13, "text-anchor": "middle" }, "abcdefg"[i]),
        svg("text", { class: "coord", x: 9, y: MARGIN + i * CELL + CELL / 2 + 4, "text-anchor": "middle" }, i + 1),
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

  function drawCities(moment) {
    const view = moment.view;
    const before = moment.index > 0 ? moments[moment.index - 1].view : null;
    const cards = view.cities.map((city, seat) => {
      const seatStrikes = strikes[moment.index][seat];
      const header = html("header", {},
        html("span", { class: "chip seat-" + seat }, String(seat)),
        html("strong", {}, seatName(seat)),
      );
      if (view.to_move === seat) header.append(html("span", { class: "badge to-move" }, "to move"));
      if (seatStrikes) {
        header.append(html("span", { class: "badge strike", "data-strikes": seatStrikes },
          `${seatStrikes} strike${seatStrikes === 1 ? "" : "s"}`));
      }
      if (moment.index >= forfeitedFrom[seat]) {
        header.append(html("span", { class: "badge forfeited" }, "forfeited: " + (replay.seats[seat].forfeit_reason || "yes")));
      }
      const stats = html("div", { class: "stats" },
        stat("vp", "VP", city.vp, "major"),
        stat("score", "score", city.score, "major"),
        stat("coins", ["coin", "coins"], city.coins),
        stat("logs", ["log", "logs"], city.logs),
        stat("walls", ["wall", "walls"], city.walls),
        stat("defence", "defence", city.defence),
        stat("cannons", ["cannon lost", "cannons lost"], city.cannons_lost, city.cannons_lost ? "alert" : ""),
        stat("empty", "empty", city.empty),
      );
      const sides = html("div", { class: "sides" },
        "sides: " + city.sides.map((state, i) => `${SIDES[i]} ${state}`).join(" · "));
      return html(
        "article",
        {
          class: "city" + (view.to_move === seat ? " active" : ""),
          "data-seat": seat,
          "data-vp": city.vp,
          "data-score": city.score,
          "data-walls": city.walls,
        },
        header, stats, cityDrawing(city, before ? before.cities[seat] : null), sides,
      );
    });
    $("cities").replaceChildren(...cards);
  }

  const FACES = {
    log: [svg("rect", { class: "f-log", x: 10, y: 19, width: 28, height: 10, rx: 5 })],
    crate: [
      svg("rect", { class: "f-crate", x: 14, y: 12, width: 20, height: 20 }),
      svg("path", { class: "f-line", d: "M14 12 L34 32 M34 12 L14 32" }),
    ],
    wall: [
      svg("rect", { class: "f-wall", x: 10, y: 14, width: 28, height: 18 }),
      svg("path", { class: "f-line", d: "M10 23 H38 M19 14 V23 M29 14 V23 M24 23 V32" }),
    ],
    cross: [svg("path", { class: "f-cross", d: "M24 10 V36 M15 18 H33" })],
    head: [
      svg("circle", { class: "f-head", cx: 24, cy: 17, r: 7 }),
      svg("path", { class: "f-head", d: "M12 36 Q24 20 36 36 Z" }),
    ],
    swords: [svg("path", { class: "f-swords", d: "M12 12 L36 36 M36 12 L12 36 M9 31 L17 39 M39 31 L31 39" })],
  };

  function drawDice(view) {
    const root = svg("svg", { class: "dice", viewBox: "0 0 290 76", role: "img" });
    view.dice.forEach((face, i) => {
      const kept = view.kept[i];
      const turned = view.rotated[i];
      const die = svg("g", {
        class: "die" + (kept ? " kept" : "") + (turned ? " rotated" : "") + (view.rolls === 0 ? " unrolled" : ""),
        transform: `translate(${6 + i * 57} 4)`,
        "data-die": i,
        "data-face": face,
        "data-kept": kept,
        "data-rotated": turned,
      },
      svg("title", {}, `die ${i + 1}: ${face}${kept ? ", kept" : ""}${turned ? ", turned" : ""}`),
      svg("rect", { class: "die-body", width: 48, height: 48, rx: 7 }),
      ...FACES[face].map((part) => part.cloneNode(true)),
      );
      const marks = [kept ? "kept" : "", turned ? "turned" : ""].filter(Boolean).join(" ");
      die.append(svg("text", { class: "die-mark", x: 24, y: 64, "text-anchor": "middle" }, marks || face));
      root.append(die);
    });
    const notes = [`rolls this turn: ${view.rolls}`];
    if (view.chosen) notes.push(`chosen: ${view.chosen}`);
    $("dice").replaceChildren(root, html("p", { class: "note" }, notes.join(" · ")));
  }

  function drawPirates(view) {
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
        .map((defence, seat) => (defence < attack.strength ? seatName(seat) : null))
        .filter((name) => name !== null);
      return html("li", {},
        `turn ${attack.turn}: strength ${attack.strength}; defences ${attack.defences.join(", ")}` +
        (below.length ? `; too weak: ${below.join(", ")}` : "; every city held"));
    });
    const next = pirates.next_attack === null ? "the track is full" : `next attack: strength ${pirates.next_attack}`;
    $("pirates").replaceChildren(root, html("p", { class: "note" }, `${pirates.boxes} boxes marked · ${next}`),
      html("ol", { class: "attacks" }, ...attacks));
  }

  function drawSaintMaloStatus(view) {
    const who = view.to_move === null ? "" : ` · ${seatName(view.to_move)} to move`;
    $("status").replaceChildren(
      html("p", { class: "turn" }, `turn ${view.turn} · round ${view.round} · ${view.phase}${who}` +
        (view.ending && view.phase !== "over" ? " · last round" : "")),
    );
  }

  function drawSaintMalo(moment) {
    drawSaintMaloStatus(moment.view);
    drawCities(moment);
    drawDice(moment.view);
    drawPirates(moment.view);
  }

  /* A game this viewer cannot draw still shows its positions, as data. */
  function drawAsData(moment) {
    $("cities").replaceChildren(html("pre", { class: "raw-view" }, JSON.stringify(moment.view, null, 1)));
  }

  const draw = replay.match.game === "saint_malo" ? drawSaintMalo : drawAsData;

  // --- steps, position and controls -------------------------------------------------------------

  function stepParts(step) {
    const parts = [html("span", { class: "who seat-" + step.seat }, seatName(step.seat))];
    parts.push(html("span", { class: "text" }, step.text));
    if (step.source !== "bot" && step.source !== "chance") parts.push(html("span", { class: "badge source" }, step.source));
    if (step.latency_us !== null) parts.push(html("span", { class: "latency" }, `${(step.latency_us / 1000).toFixed(1)} ms`));
    if (step.strike) parts.push(html("span", { class: "badge strike" }, "strike: " + step.strike));
    if (step.reply !== null) parts.push(html("code", { class: "reply" }, "refused reply " + JSON.stringify(step.reply)));
    return parts;
  }

  function turnOf(index) {
    return moments[index].view.turn;
  }

  const stepList = $("steps");
  const rows = moments.map((moment, i) => {
    const row = html("li", { "data-moment": i, class: "step-row" });
    if (moment.step === null) {
      row.append(html("span", { class: "text" }, "start of the match"));
    } else {
      if (i > 1 && turnOf(i - 1) !== turnOf(i - 2)) row.classList.add("new-turn");
      if (moment.step.strike) row.classList.add("struck");
      row.append(html("span", { class: "index" }, "#" + i), ...stepParts(moment.step));
    }
    if (i === 1 || row.classList.contains("new-turn")) row.prepend(html("span", { class: "turn-tag" }, "turn " + turnOf(i - 1)));
    row.addEventListener("click", () => show(i));
    return row;
  });
  stepList.replaceChildren(...rows);

  let current = -1;
  let timer = null;
  let urlTimer = null;

  function momentFromUrl() {
    const found = /(?:^#|&)m=(\d+)/.exec(window.location.hash);
    return found ? Math.min(Number(found[1]), last) : 0;
  }

  function rememberInUrl() {
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => history.replaceState(null, "", "#m=" + current), 120);
  }

  function keepVisible(row) {
    const top = row.offsetTop;
    if (top < stepList.scrollTop || top + row.offsetHeight > stepList.scrollTop + stepList.clientHeight) {
      stepList.scrollTop = top - stepList.clientHeight / 2;
    }
  }

  function describeCurrent(moment) {
    const box = $("step");
    if (moment.step === null) {
      box.replaceChildren(html("span", { class: "text" }, "The start of the match: nothing has happened yet."));
      box.className = "current-step";
      return;
    }
    box.replaceChildren(html("span", { class: "index" }, `step ${moment.index} · ${moment.step.kind}`), ...stepParts(moment.step));
    box.className = "current-step" + (moment.step.strike ? " struck" : "");
  }

  function show(index) {
    const target = Math.max(0, Math.min(last, index));
    if (target === current) return;
    if (current >= 0) rows[current].classList.remove("current");
    current = target;
    const moment = moments[current];
    draw(moment);
    describeCurrent(moment);
    rows[current].classList.add("current");
    keepVisible(rows[current]);
    $("scrub").value = current;
    $("position").textContent = `moment ${current} of ${last}`;
    $("turn").value = turnOf(current);
    viewer.dataset.moment = current;
    rememberInUrl();
  }

  /* The first moment of turn ``turn``, or the last moment when the match ended before it. */
  function turnStart(turn) {
    const found = moments.findIndex((moment) => moment.view.turn >= turn);
    return found === -1 ? last : found;
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    $("play").textContent = "▶ play";
    viewer.dataset.playing = "false";
  }

  function play() {
    if (current === last) show(0);
    $("play").textContent = "❚❚ pause";
    viewer.dataset.playing = "true";
    timer = setInterval(() => {
      show(current + 1);
      if (current === last) pause();
    }, Number($("speed").value));
  }

  function toggle() {
    if (timer === null) play();
    else pause();
  }

  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(current - 1));
  $("forward").addEventListener("click", () => show(current + 1));
  $("last").addEventListener("click", () => show(last));
  $("play").addEventListener("click", toggle);
  $("speed").addEventListener("change", () => {
    if (timer !== null) {
      pause();
      play();
    }
  });
  $("scrub").addEventListener("input", (event) => show(Number(event.target.value)));
  $("jump").addEventListener("submit", (event) => {
    event.preventDefault();
    show(turnStart(Number($("turn").value)));
  });
  window.addEventListener("hashchange", () => show(momentFromUrl()));
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey || event.altKey) return;
    const turn = turnOf(current);
    const actions = {
      ArrowRight: () => show(event.shiftKey ? turnStart(turn + 1) : current + 1),
      ArrowLeft: () => show(event.shiftKey ? turnStart(turnStart(turn) === current ? turn - 1 : turn) : current - 1),
      Home: () => show(0),
      End: () => show(last),
      " ": () => toggle(),
    };
    if (event.key === " " && tag === "BUTTON") return;
    if (actions[event.key]) {
      event.preventDefault();
      actions[event.key]();
    }
  });

  show(momentFromUrl());
  viewer.dataset.ready = "true";
})();
