/* Cities' drawing module for the smtourney replay viewer (docs/web-viewer.md).
 *
 * Draws one position (the plugin's ``view``) into the viewer's board area: the turn and the decks,
 * the event being resolved, one panel per seat (score, restrictions, completed empires, the cities
 * held grouped by empire with capitals and wonders marked, and the hand: its cards in the organiser's
 * view and for the seat whose view this is, only their number otherwise), and the last events played.
 * Everything is built from the view alone, but for the end: each seat's score part by part and how
 * the ranks were decided, from the replay's summary and seats (C7).
 */
(function () {
  "use strict";

  const viewer = window.smtourney;
  if (!viewer || typeof viewer.registerGame !== "function") {
    throw new Error("cities.js draws for the smtourney viewer: load viewer.js before it");
  }
  const { html } = viewer;

  const CSS = `
.ct-board { display: flex; flex-direction: column; gap: 12px; }
.ct-panel { background: var(--paper); border: 1px solid var(--line); padding: 8px 12px; }
.ct-panel h2 { margin: 0 0 6px; font-size: 1em; }
.ct-status { display: flex; flex-wrap: wrap; gap: 4px 18px; align-items: baseline; }
.ct-status .where { font-weight: bold; }
.ct-status .value { font-weight: bold; font-variant-numeric: tabular-nums; }
.ct-status .restriction { color: var(--alert); }

.ct-resolving { border-left: 4px solid #f0b400; background: #fffdf3; }
.ct-resolving .what { font-weight: bold; }
.ct-resolving .stage { color: var(--muted); font-size: 0.85em; margin-left: 6px; }
.ct-outcome { margin: 2px 0 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 0 14px; font-size: 0.86em; color: var(--muted); }
.ct-outcome li::before { content: "› "; }
.ct-reveal { color: #1e7d45; font-weight: bold; }

.ct-seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 12px; }
.ct-seat { background: var(--paper); border: 1px solid var(--line); border-top: 4px solid var(--seat, var(--line)); padding: 8px 10px; }
.ct-seat.active { box-shadow: 0 0 0 2px #f0b40088; }
.ct-seat.viewing { background: #fffdf3; }
.ct-seat header { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 4px; }
.ct-seat header strong { margin-right: auto; }
.ct-stats { display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: 0.88em; color: var(--muted); margin-bottom: 4px; }
.ct-stats .value { color: var(--ink); font-weight: bold; font-variant-numeric: tabular-nums; }
.ct-stats .major { font-size: 1.15em; }
.badge.ct-active { background: #f0b400; color: #1d2330; }
.badge.ct-deciding { background: #1d2330; color: #fff; }
.badge.ct-viewer { background: #1f5fbf; color: #fff; }
.badge.ct-restriction { background: #fde8e6; color: var(--alert); border: 1px solid var(--alert); }
.badge.ct-wonders { background: #fff2b3; color: #7a5b00; border: 1px solid #d4ac0d; }

.ct-final { border-collapse: collapse; margin: 4px 0; }
.ct-final th, .ct-final td { border: 1px solid var(--line); padding: 2px 8px; text-align: right; }
.ct-final th:first-child, .ct-final td:first-child { text-align: left; }
.ct-tie-break { margin: 4px 0 0; }
.ct-completed { display: flex; flex-wrap: wrap; gap: 4px; margin: 2px 0 6px; }
.ct-empire-done { padding: 1px 8px; border-radius: 3px; color: var(--ink); background: var(--empire); border: 1px solid #0004; font-size: 0.85em; font-weight: bold; }
.ct-empire-done::before { content: "✔ "; }

.ct-groups { display: flex; flex-direction: column; gap: 3px; margin: 4px 0; }
.ct-group { display: flex; gap: 6px; align-items: baseline; }
.ct-group .label { flex: 0 0 7.5em; font-size: 0.82em; color: var(--ink); background: var(--empire); border-radius: 3px; padding: 0 4px; font-weight: bold; white-space: nowrap; }
.ct-group .label .count { font-weight: normal; }
.ct-group .cities { display: flex; flex-wrap: wrap; gap: 3px; }
.ct-city { padding: 0 6px; border: 1px solid #0004; border-radius: 3px; font-size: 0.85em; background: var(--empire); }
.ct-city.capital { font-weight: bold; }
.ct-city.capital::before { content: "♛ "; }
.ct-city.wonder::after { content: " ✦"; color: #c89b00; }
.ct-none { color: var(--muted); font-size: 0.85em; font-style: italic; }

.ct-hand { margin-top: 6px; font-size: 0.85em; }
.ct-hand .title { color: var(--muted); margin-right: 4px; }
.ct-hand .cards { display: inline-flex; flex-wrap: wrap; gap: 3px; vertical-align: top; }
.ct-card { padding: 0 6px; border-radius: 3px; background: #eef1f7; border: 1px solid #c7cedb; }
.ct-card.protection { background: #e6f4ea; border-color: #7fbf94; }
.ct-card .times { color: var(--muted); margin-left: 2px; }
.ct-hand.hidden .count { font-weight: bold; }
.ct-facedown { color: var(--muted); font-size: 0.82em; margin-top: 2px; }

.ct-log > ol { margin: 0; padding-left: 0; list-style: none; display: flex; flex-direction: column; gap: 6px; }
.ct-log > ol > li { border-left: 3px solid var(--seat, var(--line)); padding-left: 8px; }
.ct-log .when { color: var(--muted); font-size: 0.85em; margin-right: 6px; }

/* Empires are light tints under dark text, the seats' colours strong hues: inside a seat's panel an
 * empire never looks like a seat. */
.e-rome { --empire: #f6d3ce; }
.e-greece { --empire: #d3e5f5; }
.e-carthage { --empire: #e6d6f1; }
.e-egypt { --empire: #f4e8b8; }
.e-persia { --empire: #c9ece4; }
.e-celts { --empire: #d6efcf; }
.e-jews { --empire: #e0e3e8; }
.e-etruscans { --empire: #f7dcc6; }
.e-neutral { --empire: #f1f1ee; }
.seat-5 { --seat: var(--seat-5, #8c564b); }
`;

  const DECIDING = {
    draw: "to choose a card",
    play: "to play",
    react: "to react",
    exchange: "to answer the exchange",
    give_city: "to give up a city",
    give_event: "to discard an event",
  };

  function plural(count, word) {
    return `${count} ${word}${count === 1 ? "" : "s"}`;
  }

  function stat(name, label, value, extra) {
    return html("span", { class: extra || "", "data-stat": name }, html("span", { class: "value" }, String(value)), " " + label);
  }

  function status(view, ctx) {
    const parts = [html("span", { class: "where" }, `round ${view.round} of at most ${view.max_rounds} · turn ${view.turn}`)];
    if (view.phase === "over") {
      parts.push(html("span", {}, "the game is over"));
    } else if (view.phase !== "setup") {
      parts.push(html("span", {}, ctx.seatName(view.active) + "'s turn",
        view.plays_left ? ` · ${plural(view.plays_left, "play")} left` : ""));
    }
    if (view.deciding) {
      parts.push(html("span", { "data-deciding": view.deciding.seat },
        `${ctx.seatName(view.deciding.seat)} ${DECIDING[view.deciding.kind] || view.deciding.kind}`));
    }
    parts.push(
      html("span", { class: "ct-decks" },
        html("span", { "data-deck": "cities" }, "city deck ", html("span", { class: "value" }, String(view.decks.cities))),
        " · ",
        html("span", { "data-deck": "events" }, "event deck ", html("span", { class: "value" }, String(view.decks.events)))),
      html("span", { class: "note" }, `${view.size} game · ${plural(view.played, "event")} played`),
    );
    return html("section", { class: "ct-panel ct-status" }, ...parts);
  }

  /* Consequences of an event, in order; revealed protection stands out. */
  function outcomeList(lines) {
    if (!lines.length) return null;
    return html("ol", { class: "ct-outcome" },
      ...lines.map((line) => html("li", { class: / reveals /.test(line) ? "ct-reveal" : "" }, line)));
  }

  function resolving(view, ctx) {
    const res = view.resolving;
    if (!res) return null;
    const stage = res.stage === "react" ? "protection may be revealed" : "resolving";
    const parts = [
      html("h2", {}, "Event under way"),
      html("div", {}, ctx.seatChip(res.seat), " ", html("span", { class: "what" }, res.text),
        html("span", { class: "stage" }, stage)),
    ];
    const list = outcomeList(res.outcome);
    if (list) parts.push(list);
    if (res.giving) parts.push(html("div", { class: "note" }, res.giving));
    return html("section", { class: "ct-panel ct-resolving", "data-event": res.event }, ...parts);
  }

  function cityChip(city) {
    const cls = "ct-city" + (city.capital ? " capital" : "") + (city.wonder ? " wonder" : "");
    const notes = [city.capital ? "capital" : "", city.wonder ? "wonder" : ""].filter(Boolean).join(", ");
    return html("span", { class: cls, "data-city": city.id, title: notes ? `${city.name} (${notes})` : city.name }, city.name);
  }

  function groups(seat) {
    if (!seat.groups.length) return html("div", { class: "ct-groups" }, html("span", { class: "ct-none" }, "no cities"));
    return html("div", { class: "ct-groups" }, ...seat.groups.map((group) =>
      html("div", { class: `ct-group e-${group.empire}`, "data-empire": group.empire },
        html("span", { class: "label" }, group.name, " ",
          html("span", { class: "count" }, group.empire === "neutral" ? `${group.cities.length}` : `${group.cities.length}/${group.of}`)),
        html("span", { class: "cities" }, ...group.cities.map(cityChip)))));
  }

  function hand(seat) {
    if (seat.hand === null) {
      return html("div", { class: "ct-hand hidden", "data-size": seat.hand_size },
        html("span", { class: "title" }, "hand:"), html("span", { class: "count" }, plural(seat.hand_size, "event")), " (hidden)");
    }
    const cards = seat.hand.map((card) => html("span", {
      class: "ct-card" + (card.event.endsWith("protection") ? " protection" : ""),
      "data-event": card.event,
      "data-count": card.count,
    }, card.name, card.count > 1 ? html("span", { class: "times" }, `×${card.count}`) : ""));
    return html("div", { class: "ct-hand", "data-size": seat.hand_size },
      html("span", { class: "title" }, `hand (${seat.hand_size}):`),
      cards.length ? html("span", { class: "cards" }, ...cards) : html("span", { class: "ct-none" }, "empty"));
  }

  function faceDown(seat) {
    if (!seat.face_down) return null;
    const which = seat.face_down_cards ? ": " + seat.face_down_cards.map((c) => c.count > 1 ? `${c.name} ×${c.count}` : c.name).join(", ") : "";
    return html("div", { class: "ct-facedown", "data-face-down": seat.face_down }, `${plural(seat.face_down, "event")} lost face down${which}`);
  }

  function seatPanel(view, seat, ctx) {
    const s = view.seats[seat];
    const header = html("header", {}, ctx.seatChip(seat), html("strong", {}, ctx.seatName(seat)));
    if (view.phase !== "over" && view.phase !== "setup" && view.active === seat) header.append(html("span", { class: "badge ct-active" }, "turn"));
    if (view.deciding && view.deciding.seat === seat) header.append(html("span", { class: "badge ct-deciding" }, "deciding"));
    if (ctx.viewerSeat === seat) header.append(html("span", { class: "badge ct-viewer" }, "this view's seat"));
    header.append(...ctx.seatBadges(seat));
    const stats = html("div", { class: "ct-stats" },
      stat("score", "score", s.score, "major"),
      stat("held", s.held === 1 ? "city" : "cities", s.held),
      stat("hand", s.hand_size === 1 ? "event" : "events", s.hand_size),
      stat("wonders", "of 7 wonders", s.wonders_owned));
    const marks = [];
    if (s.wonders) marks.push(html("span", { class: "badge ct-wonders" }, "wonders bonus +5"));
    for (const text of s.restrictions) marks.push(html("span", { class: "badge ct-restriction" }, text));
    const parts = [header, stats];
    if (marks.length) parts.push(html("div", { class: "ct-completed" }, ...marks));
    if (s.completed.length) {
      parts.push(html("div", { class: "ct-completed" }, ...s.completed.map((e) =>
        html("span", { class: `ct-empire-done e-${e.empire}`, "data-completed": e.empire, title: `${e.name} completed` }, e.name))));
    }
    parts.push(groups(s), hand(s));
    const lost = faceDown(s);
    if (lost) parts.push(lost);
    const classes = ["ct-seat", "seat-" + seat];
    if (view.phase !== "over" && view.active === seat) classes.push("active");
    if (ctx.viewerSeat === seat) classes.push("viewing");
    return html("article", { class: classes.join(" "), "data-seat": seat, "data-score": s.score }, ...parts);
  }

  function log(view, ctx) {
    if (!view.log.length) return null;
    const items = view.log.slice().reverse().map((record) => {
      const parts = [html("span", { class: "when" }, `turn ${record.turn}`), ctx.seatChip(record.seat), " ", record.text];
      const list = outcomeList(record.outcome.length ? record.outcome : ["nothing happens"]);
      return html("li", { class: "seat-" + record.seat, "data-event": record.event }, html("div", {}, ...parts), list);
    });
    return html("section", { class: "ct-panel ct-log" },
      html("h2", {}, view.played > view.log.length ? `Last ${view.log.length} of ${view.played} events played` : "Events played"),
      html("ol", {}, ...items));
  }

  /* The end: the view's ``final_scoring`` rows (empires completed, a point each, and the wonders
   * bonus), the score, the cities held that break ties and the rank, the winner marked, with the rule
   * that decided it (C7: score, then cities held, then shared). */
  function finalScoring(view, ctx) {
    if (!view.final_scoring || !ctx.replay) return null;
    const seats = ctx.replay.seats;
    const held = (seat) => view.seats[seat.seat].held;
    const equal = (a) => seats.filter((b) => b.score === a.score);
    const tied = seats.filter((seat) => equal(seat).length > 1);
    const shared = tied.filter((a) => equal(a).some((b) => b !== a && held(b) === held(a)));
    let why = "No equal scores: the ranks follow the scores.";
    if (tied.length) {
      why = `Equal scores are ranked by the cities held at the end (C7): ${tied.map((seat) =>
        `${seat.name} ${held(seat)}`).join(", ")}.`;
      if (shared.length) why += ` Equal in both, ${shared.map((seat) => seat.name).join(" and ")} share a rank.`;
    }
    return html("section", { class: "ct-panel ct-end" },
      html("h2", {}, "Final score"),
      viewer.scoreTable(view.final_scoring, seats, "ct-final", [["cities_held", "cities held (breaks ties)", held]]),
      html("p", { class: "ct-tie-break" }, why));
  }

  function draw(board, view, ctx) {
    const seats = html("div", { class: "ct-seats" }, ...view.seats.map((_, seat) => seatPanel(view, seat, ctx)));
    const parts = [status(view, ctx), finalScoring(view, ctx), resolving(view, ctx), seats, log(view, ctx)].filter(Boolean);
    board.replaceChildren(html("div", { class: "ct-board" }, ...parts));
  }

  viewer.registerGame("cities", { draw, css: CSS });
})();
