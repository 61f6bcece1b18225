/* A running tournament's page: asks for its progress about once a second and updates the page in
 * place (stored of scheduled matches, time left, matches in flight, provisional standings). */
(function () {
  "use strict";
  const PERIOD_MS = 1000;
  const section = document.getElementById("live");
  const url = section.dataset.url;
  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    node.append(...children.map((child) => (typeof child === "object" ? child : String(child))));
    return node;
  }

  function duration(seconds) {
    if (seconds === null || seconds === undefined) return "estimating";
    const s = Math.round(seconds);
    if (s < 60) return `${s} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
    return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  }

  function fixed(value, digits) {
    return Number(value).toFixed(digits);
  }

  function standingRow(s, tournamentPath) {
    const alert = (n) => "num" + (n ? " alert" : "");
    const cell = (cls, text) => el("td", { class: cls }, text);
    const link = el("a", { href: `${tournamentPath}/matches?entrant=${encodeURIComponent(s.name)}` }, s.name);
    const interval = el("td", { class: "num rank-interval", "data-low": s.rank_interval[0], "data-high": s.rank_interval[1] },
      `${s.rank_interval[0]}–${s.rank_interval[1]}`);
    return el("tr", { "data-entrant": s.name },
      cell("num", s.rank), el("td", {}, link), cell("num", fixed(s.mu, 2)), cell("num", fixed(s.sigma, 2)),
      cell("num", fixed(s.conservative, 2)), cell("num", s.matches), cell("num", s.wins),
      cell("num", fixed(s.mean_score, 1)), cell(alert(s.strikes), s.strikes), cell(alert(s.forfeits), s.forfeits),
      interval);
  }

  function flightRow(m) {
    return el("tr", { "data-match": m.match_id },
      el("td", {}, el("a", { href: m.url }, m.match_id)),
      el("td", {}, m.seats.join(", ")),
      el("td", { class: "num" }, duration(m.running_s)),
      el("td", { class: "num" }, m.steps));
  }

  function update(data) {
    const tournamentPath = url.replace(/^\/api/, "").replace(/\/live$/, "");
    $("live-bar").max = Math.max(1, data.total);
    $("live-bar").value = data.done;
    $("live-progress").textContent = `${data.done} of ${data.total} matches stored`;
    $("finished-count").textContent = String(data.done);
    section.dataset.done = String(data.done);
    section.dataset.total = String(data.total);
    $("in-flight").tBodies[0].replaceChildren(...data.in_flight.map(flightRow));
    $("standings").tBodies[0].replaceChildren(...data.standings.map((s) => standingRow(s, tournamentPath)));
    $("provisional").hidden = !data.provisional;
    if (data.running) {
      $("live-estimate").textContent = "time left: " + duration(data.estimate_s);
    } else {
      section.dataset.running = "false";
      $("live-estimate").textContent = "finished: reload the page for the final statistics";
    }
    return data.running;
  }

  async function poll() {
    let again = true;
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      const data = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
      again = update(data);
    } catch (error) {
      $("live-estimate").textContent = `cannot update: ${error.message}`;
    }
    if (again) setTimeout(poll, PERIOD_MS);
  }
  poll();
})();
