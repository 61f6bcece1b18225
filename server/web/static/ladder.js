// The ladder's live pages: draw the page's JSON, then poll it and redraw, marking what changed.
// Every text goes in through textContent, never as markup: bot and participant names are chosen by
// participants.
"use strict";

(() => {
  const live = document.getElementById("live");
  const source = live.dataset.source;
  const pollMs = Number(live.dataset.pollMs);
  const state = document.getElementById("live-state");
  let polls = 0;

  function node(tag, props, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (value === undefined || value === null) continue;
      if (name === "class") element.className = value;
      else element.setAttribute(name, value);
    }
    for (const child of children) {
      if (child !== undefined && child !== null) element.append(child instanceof Node ? child : String(child));
    }
    return element;
  }

  // Mark an element as just changed: the stylesheet flashes it, from the start each time.
  function flash(element) {
    element.classList.remove("changed");
    void element.offsetWidth;
    element.classList.add("changed");
    element.dataset.changed = String(polls);
  }

  const cell = (content, cls) => node("td", { class: cls }, content);
  const fixed = (value, digits = 2) => value.toFixed(digits);
  // Every time on the ladder's pages in one form, in UTC (the tables' headings say so).
  const when = (iso) => (iso ? iso.slice(0, 19).replace("T", " ") : "—");
  const badge = (status, reason) => node("span", { class: `status status-${status}`, title: reason }, status);
  const interval = (row) => (row.rank_interval ? `${row.rank_interval[0]}–${row.rank_interval[1]}` : "—");

  // A table redrawn from a list when its data changed: rows are keyed, and a row that is new or whose
  // shown values differ from the last draw is marked "changed" (or "new"), which the stylesheet
  // flashes; the marks stay until the data changes again.
  class LiveTable {
    constructor(table, empty) {
      this.table = table;
      this.body = table.tBodies[0];
      this.empty = empty;
      this.before = null;
    }

    // ``decorate(row, item, previous)`` adds what shows the change itself (not part of the row's values);
    // ``own(item)``, when given, is what marks the row: the figures of its own, not those that move
    // whenever any other row changes (a rank, a rank interval).
    draw(items, key, render, decorate, own) {
      const now = new Map();
      const rows = items.map((item) => {
        const id = String(key(item));
        const previous = this.before ? this.before.get(id) : undefined;
        const row = render(item);
        const signature = own ? JSON.stringify(own(item)) : row.textContent;
        if (decorate) decorate(row, item, previous);
        row.dataset.key = id;
        if (this.before && (!previous || previous.signature !== signature)) {
          row.classList.add(previous ? "changed" : "new");
          row.dataset.changed = String(polls);
        }
        now.set(id, { signature, item });
        return row;
      });
      this.body.replaceChildren(...rows);
      if (this.empty) {  // the note that says so, instead of a table of headings alone
        this.empty.hidden = items.length > 0;
        this.table.hidden = items.length === 0;
      }
      this.before = now;
    }
  }

  function move(row, item, previous) {
    if (!previous || previous.item.rank === item.rank) return;
    const up = item.rank < previous.item.rank;
    const by = Math.abs(item.rank - previous.item.rank);
    row.querySelector(".rank").append(
      node("span", { class: `move ${up ? "up" : "down"}`, title: `${up ? "up" : "down"} ${by}` }, `${up ? "▲" : "▼"}${by}`));
  }

  const botLink = (id, name) => node("a", { href: `/ladder/bots/${id}` }, name);

  function leaderboard() {
    const table = new LiveTable(document.getElementById("leaderboard"), document.getElementById("empty"));
    return (rows) => table.draw(rows, (row) => row.id, (row) => node("tr", { "data-bot": row.id },
      cell(node("span", { class: "rank" }, row.rank), "num"),
      cell(botLink(row.id, row.name), "name"),
      cell(row.participant, "name"),
      cell(badge(row.status, row.reason)),
      cell(fixed(row.mu), "num"),
      cell(fixed(row.sigma), "num"),
      cell(fixed(row.conservative), "num"),
      cell(interval(row), "num"),
      cell(row.games, "num"),
      cell(when(row.last_game_at), "when"),
    ), move, (row) => [row.name, row.participant, row.status, row.mu, row.sigma, row.games, row.last_game_at]);
  }

  function bots() {
    const table = new LiveTable(document.getElementById("bots"), document.getElementById("empty"));
    return (rows) => table.draw(rows, (row) => row.id, (row) => node("tr", { "data-bot": row.id },
      cell(botLink(row.id, row.name), "name"),
      cell(row.participant, "name"),
      cell(node("span", {}, badge(row.status, row.reason), row.reason ? node("span", { class: "why" }, row.reason) : null)),
      cell(row.rank || "—", "num"),
      cell(row.games, "num"),
      cell(when(row.last_game_at), "when"),
    ));
  }

  function seatText(seat) {
    const result = seat.rank === null ? `mu ${fixed(seat.mu, 1)}` : `${seat.score}, #${seat.rank}`;
    const faults = seat.forfeited ? ", forfeited" : seat.strikes ? `, ${seat.strikes} strike${seat.strikes > 1 ? "s" : ""}` : "";
    return node("span", { class: `seat-result${seat.rank === 1 ? " winner" : ""}${seat.forfeited ? " forfeited" : ""}`,
      "data-seat": seat.seat },
      `${seat.seat}: `, botLink(seat.bot_id, seat.name), ` (${seat.participant}; ${result}${faults})`);
  }

  const watchLink = (match) => node("a", { href: match.url, class: "watch" },
    match.status === "done" ? "replay" : "watch live");

  function matches() {
    const table = new LiveTable(document.getElementById("in-progress"), document.getElementById("empty"));
    const results = new LiveTable(document.getElementById("results"), document.getElementById("no-results"));
    return (board) => {
      table.draw(board.in_progress, (match) => match.id, (match) => node("tr", { "data-match": match.id },
        cell(match.id, "num"),
        cell(badge(match.status)),
        cell(node("span", { class: "seats" }, ...match.seats.map(seatText))),
        cell(fixed(match.quality, 3), "num"),
        cell(when(match.decided_at), "when"),
        cell(watchLink(match)),
      ));
      results.draw(board.recent, (match) => match.id, (match) => node("tr", { "data-match": match.id },
        cell(match.id, "num"),
        cell(node("span", { class: "seats" }, ...match.seats.map(seatText))),
        cell(when(match.finished_at), "when"),
        cell(watchLink(match)),
      ));
    };
  }

  function bot() {
    const facts = document.getElementById("bot-facts");
    const reason = document.getElementById("bot-reason");
    const chart = document.getElementById("chart");
    const played = new LiveTable(document.getElementById("bot-matches"), document.getElementById("no-matches"));
    const faults = new LiveTable(document.getElementById("bot-faults"), document.getElementById("no-faults"));
    let drawn = JSON.stringify(JSON.parse(document.getElementById("live-data").textContent).history);

    return async (story) => {
      const b = story.bot;
      const fact = (term, value, cls) => [node("dt", {}, term), node("dd", { class: cls }, value)];
      const items = [
        ...fact("status", badge(b.status, b.reason)),
        ...fact("rank", b.rank ? String(b.rank) : "—"),
        ...fact("mu", fixed(b.mu), "num"),
        ...fact("sigma", fixed(b.sigma), "num"),
        ...fact("conservative", fixed(b.conservative), "num"),
        ...fact("rank 95 %", interval(b), "num"),
        ...fact("games", String(b.games), "num"),
        ...fact("last game (UTC)", when(b.last_game_at)),
        ...fact("submitted (UTC)", when(story.submitted_at)),
      ];
      const before = facts.textContent;
      facts.replaceChildren(...items);
      if (polls > 0 && facts.textContent !== before) flash(facts);
      reason.hidden = !b.reason;
      reason.textContent = b.reason ? `${b.status}: ${b.reason}` : "";

      const listed = story.matches.length;
      document.getElementById("match-count").textContent = story.match_count > listed
        ? `The newest ${listed} of its ${story.match_count} matches, newest first.`
        : `${story.match_count} match${story.match_count === 1 ? "" : "es"}, newest first.`;
      played.draw(story.matches, (match) => match.id, (match) => {
        const mine = match.seats.find((seat) => seat.bot_id === b.id);
        return node("tr", { "data-match": match.id },
          cell(match.id, "num"),
          cell(badge(match.status)),
          cell(mine ? mine.seat : "", "num"),
          cell(node("span", { class: "seats" }, ...match.seats.map(seatText))),
          cell(when(match.finished_at), "when"),
          cell(watchLink(match)),
        );
      });
      faults.draw(story.faults, (fault) => fault.ladder_match, (fault) => node("tr", { "data-match": fault.ladder_match },
        cell(node("a", { href: fault.url }, fault.ladder_match), "num"),
        cell(fault.strikes, fault.strikes ? "num alert" : "num"),
        cell(fault.forfeited ? fault.forfeit_reason || "forfeited" : "—", fault.forfeited ? "alert" : undefined),
        cell(fault.faults.join("; ")),
      ));

      const history = JSON.stringify(story.history);
      if (history !== drawn) {
        const reply = await fetch(chart.dataset.chart, { cache: "no-store" });
        if (reply.ok) {
          chart.innerHTML = await reply.text();  // our own server's rendering, names escaped there
          flash(chart);
          drawn = history;
        }
      }
    };
  }

  const draw = { leaderboard, bots, matches, bot }[live.dataset.kind]();

  async function poll() {
    try {
      const reply = await fetch(source, { cache: "no-store", headers: { Accept: "application/json" } });
      if (!reply.ok) throw new Error(`the server answered ${reply.status}`);
      const text = JSON.stringify(await reply.json());
      polls += 1;
      if (text !== shown) {  // the marks of the last change stay until the next one
        shown = text;
        await draw(JSON.parse(text));
      }
      state.textContent = `updated at ${when(new Date().toISOString())} (UTC)`;
      live.dataset.polls = String(polls);
      live.classList.remove("stale");
    } catch (error) {
      state.textContent = `cannot update (${error.message}); trying again`;
      live.classList.add("stale");
    } finally {
      setTimeout(poll, pollMs);
    }
  }

  const initial = JSON.parse(document.getElementById("live-data").textContent);
  let shown = JSON.stringify(initial);
  Promise.resolve(draw(initial)).then(() => {
    live.dataset.ready = "true";
    setTimeout(poll, pollMs);
  });
})();
