/* The replay viewer: steps through a smtourney replay (docs/replay-format.md) and draws each moment.
 *
 * It knows no game. It draws the controls, the seats and the decision list of any replay; the
 * position itself is drawn into the board area by the module of the replay's game, which registers
 * itself with window.smtourney.registerGame (docs/web-viewer.md). A game without a module is shown
 * as data.
 *
 * The replay is read from the page's <script id="replay-data"> element, so the same script serves
 * the web app and exported single-file replays. The URL names what is shown, so a copied link opens
 * at the same place: ?seat=N for a seat's view (served pages only), #m=N for the moment.
 */
(function () {
  "use strict";

  const SVG_NS = "http://www.w3.org/2000/svg";

  /* Fills ``node``: an attribute or child that is null or undefined is left out (an empty value,
   * never the text "null"), so a view's missing fields need no test in a game's module. */
  function fill(node, attrs, children) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(key, String(value));
    }
    node.append(...children.filter((child) => child !== null && child !== undefined).map(
      (child) => (typeof child === "object" ? child : String(child))));
    return node;
  }

  function html(tag, attrs, ...children) {
    return fill(document.createElement(tag), attrs, children);
  }

  function svg(tag, attrs, ...children) {
    return fill(document.createElementNS(SVG_NS, tag), attrs, children);
  }

  // --- the game modules ---------------------------------------------------------------------------

  const games = {};
  let gameRegistered = null; // set once the viewer runs: redraws when the replay's game arrives

  /* Called by a game's module: ``module.draw(board, view, ctx)`` draws one position; the optional
   * ``module.css`` is added to the page once. A game family's one module registers for its prefix
   * (``"prefix:"``) and draws every game of the family. */
  function registerGame(name, module) {
    if (typeof name !== "string" || !module || typeof module.draw !== "function") {
      throw new TypeError("registerGame(name, {draw(board, view, ctx)}): a name and a draw function are needed");
    }
    games[name] = module;
    if (module.css) {
      const style = html("style", { "data-game": name });
      style.textContent = module.css;
      document.head.append(style);
    }
    if (gameRegistered) gameRegistered(name);
  }

  /* The module that draws ``game``: its own, else its family's. */
  function moduleOf(game) {
    return games[game] || games[game.slice(0, game.indexOf(":") + 1)];
  }

  window.smtourney = Object.assign(window.smtourney || {}, { registerGame, html, svg });

  // --- final score tables -------------------------------------------------------------------------

  /* A game's final score table from its view's ``final_scoring`` rows (docs/replay-format.md): one row
   * per source of points, in the rules' order, under a line per stage with the stage's subtotal; then
   * each seat's final score (the stored one, which the rows add up to), the game's ``extra`` rows
   * ([key, label, value(seat)]: what breaks ties) and the rank. The winners' columns are marked. */
  function scoreTable(rows, seats, className, extra) {
    const won = (seat) => seat.rank === 1;
    const text = (value) => (value === null || value === undefined ? "" : String(value));
    const line = (attrs, label, value) => html("tr", attrs, html("td", {}, label),
      ...seats.map((seat, s) => html("td", { class: won(seat) ? "winner" : null }, text(value(seat, s)))));
    const sum = (some, s) => some.reduce((total, row) => total + row.points[s], 0);
    const body = [];
    rows.forEach((row, i) => {
      if (row.stage && (i === 0 || rows[i - 1].stage !== row.stage)) {
        const stage = rows.filter((other) => other.stage === row.stage);
        body.push(line({ class: "score-stage", "data-stage": row.stage }, row.stage, (seat, s) => sum(stage, s)));
      }
      body.push(line({ class: "part", "data-part": row.key }, row.label, (seat, s) => row.points[s]));
    });
    body.push(line({ class: "total", "data-row": "score" }, "final score",
      (seat, s) => (seat.score === null || seat.score === undefined ? sum(rows, s) : seat.score)));
    for (const [key, label, value] of extra || []) body.push(line({ "data-row": key }, label, value));
    body.push(line({ "data-row": "rank" }, "rank", (seat) => seat.rank));
    const head = html("tr", {}, html("th", {}, ""), ...seats.map((seat) => html("th",
      { class: "seat-" + seat.seat + (won(seat) ? " winner" : "") },
      seat.name, won(seat) ? html("span", { class: "badge winner" }, "winner") : null)));
    return html("table", { class: "final-scoring " + className }, html("thead", {}, head), html("tbody", {}, ...body));
  }

  window.smtourney.scoreTable = scoreTable;

  // --- a page's moments: the first view, then each moment's changes -------------------------------

  /* Rebuilds, in place, the ``view`` of every moment that carries ``changes`` instead (a served or
   * exported page does: server/web/view_changes.py, docs/web-viewer.md): each change is
   * ``[path, value]`` (set; an index one past a list's end appends) or ``[path]`` (remove the key, or
   * cut the list there). Views share what did not change: each is copied only along changed paths. */
  function rebuildViews(moments) {
    moments.forEach((moment, i) => {
      if (!moment.changes) return;
      const copied = new Set();
      const own = (node) => {
        if (copied.has(node)) return node;
        const copy = Array.isArray(node) ? node.slice() : Object.assign({}, node);
        copied.add(copy);
        return copy;
      };
      let view = moments[i - 1].view;
      for (const [path, ...value] of moment.changes) {
        if (path.length === 0) {
          view = value[0];
          continue;
        }
        view = own(view);
        let node = view;
        for (const key of path.slice(0, -1)) {
          const child = own(node[key]);
          node[key] = child;
          node = child;
        }
        const key = path[path.length - 1];
        if (value.length) node[key] = value[0];
        else if (Array.isArray(node)) node.length = key;
        else delete node[key];
      }
      moment.view = view;
      delete moment.changes;
    });
    return moments;
  }

  window.smtourney.rebuildViews = rebuildViews;

  // --- the viewer ---------------------------------------------------------------------------------

  function start() {
    const $ = (id) => document.getElementById(id);
    const viewer = $("viewer");
    const board = $("board");
    const stepList = $("steps");
    const seatSelect = $("seat-view");
    /* Where the other views of this match are fetched from (absent from exported files). */
    const replayUrl = viewer.dataset.replayUrl || null;

    let replay = null;
    let moments = [];
    let last = 0;
    let strikes = [];
    let forfeitedFrom = [];
    let rows = [];
    let current = -1;
    let timer = null;
    let urlTimer = null;
    /* A live page follows the newest moment until the viewer steps back; a follow control resumes. */
    const live = $("live-script") !== null;
    let following = false;

    function seatName(seat) {
      return seat === null || seat === undefined ? "chance" : replay.seats[seat].name;
    }

    function seatChip(seat) {
      return html("span", { class: "chip seat-" + seat }, String(seat));
    }

    /* Strikes of ``seat`` up to moment ``index``, and its forfeit once it happened: red and black badges. */
    function seatBadges(seat, index) {
      const badges = [];
      const count = strikes[index][seat];
      if (count) {
        badges.push(html("span", { class: "badge strike", "data-strikes": count },
          `${count} strike${count === 1 ? "" : "s"}`));
      }
      if (index >= forfeitedFrom[seat]) {
        badges.push(html("span", { class: "badge forfeited" },
          "forfeited: " + (replay.seats[seat].forfeit_reason || "yes")));
      }
      return badges;
    }

    /* What a game module is told besides the view (docs/web-viewer.md). */
    function context(index) {
      return {
        replay,
        index,
        moment: moments[index],
        previous: index > 0 ? moments[index - 1].view : null,
        turn: moments[index].turn,
        viewerSeat: replay.viewer_seat === undefined ? null : replay.viewer_seat,
        seatNames: replay.seats.map((seat) => seat.name),
        seatName,
        seatChip,
        seatBadges: (seat) => seatBadges(seat, index),
        strikes: (seat) => strikes[index][seat],
        forfeited: (seat) => index >= forfeitedFrom[seat],
        html,
        svg,
      };
    }

    /* A game this viewer has no module for still shows its positions, as data. */
    function drawAsData(moment, why) {
      board.replaceChildren(html("p", { class: "note" }, why), html("pre", { class: "raw-view" }, JSON.stringify(moment.view, null, 1)));
    }

    function draw(index) {
      const moment = moments[index];
      const game = moduleOf(replay.match.game);
      if (!game) {
        drawAsData(moment, `No drawing module for ${replay.match.title} is loaded: the position as data.`);
        return;
      }
      try {
        game.draw(board, moment.view, context(index));
      } catch (error) {
        drawAsData(moment, `The drawing module of ${replay.match.title} failed (${error}): the position as data.`);
        setTimeout(() => { throw error; }); // still reported, as any script error
      }
    }

    // --- steps ------------------------------------------------------------------------------------

    function stepParts(step) {
      const parts = [html("span", { class: "who seat-" + step.seat }, seatName(step.seat))];
      parts.push(html("span", { class: "text" }, step.text));
      if (step.source !== "bot" && step.source !== "chance") parts.push(html("span", { class: "badge source" }, step.source));
      if (step.latency_us !== null) parts.push(html("span", { class: "latency" }, `${(step.latency_us / 1000).toFixed(1)} ms`));
      if (step.strike) parts.push(html("span", { class: "badge strike" }, "strike: " + step.strike));
      if (step.asked_at !== null && step.asked_at !== undefined) {
        parts.push(html("span", { class: "badge together", title: `asked at step ${step.asked_at}` }, "asked at once"));
      }
      if (step.reply !== null) parts.push(html("code", { class: "reply" }, "refused reply " + JSON.stringify(step.reply)));
      return parts;
    }

    /* The turn moment ``index``'s step was played in (at the start: the first turn), so the bar, the
     * list's turn headings and the turn controls count turns alike: a step that ends a turn is in it. */
    function turnOf(index) {
      return moments[index === 0 ? 0 : index - 1].turn;
    }

    /* Number of the last step applied at moment ``index`` (-1 at the start). */
    function seqOf(index) {
      return index === 0 ? -1 : moments[index].step.seq;
    }

    /* The organiser's number of moment ``index``: the number of steps played up to it, in every view, so
     * a step keeps its number (and a ``#m=`` link its step) in a seat's view, which skips steps. */
    function stepNumber(index) {
      return seqOf(index) + 1;
    }

    /* The moment showing the position after step ``seq``, or the closest one before it. */
    function momentOfSeq(seq) {
      let found = 0;
      while (found < last && seqOf(found + 1) <= seq) found += 1;
      return found;
    }

    /* Takes ``data`` as the replay shown (at first, and when another seat's view is chosen). */
    function load(data) {
      replay = data;
      moments = rebuildViews(data.moments);
      last = moments.length - 1;
      current = -1;

      /* Strikes each seat has received up to each moment, so a strike stays visible after its step. */
      strikes = [];
      moments.forEach((moment, i) => {
        const row = i === 0 ? replay.seats.map(() => 0) : strikes[i - 1].slice();
        if (moment.step && moment.step.strike && moment.step.seat !== null) row[moment.step.seat] += 1;
        strikes.push(row);
      });

      /* A forfeited seat is shown as such from its last strike on; when its strikes are hidden (another
       * seat's view), from its first move played for it; from the start if it never played. */
      forfeitedFrom = replay.seats.map((seat, s) => {
        if (!seat.forfeited) return Infinity;
        const mine = moments.filter((m) => m.step && m.step.seat === s);
        const struck = mine.filter((m) => m.step.strike);
        if (struck.length) return struck[struck.length - 1].index;
        const played = mine.find((m) => m.step.source === "fallback");
        return played ? played.index : 0;
      });

      rows = moments.map((moment, i) => {
        const row = html("li", { "data-moment": i, class: "step-row" });
        if (moment.step === null) {
          row.append(html("span", { class: "text" }, "start of the match"));
        } else {
          row.dataset.seat = moment.step.seat === null ? "" : moment.step.seat;
          if (i > 1 && turnOf(i) !== turnOf(i - 1)) row.classList.add("new-turn");
          if (moment.step.strike) row.classList.add("struck");
          row.dataset.step = String(stepNumber(i));
          row.append(html("span", { class: "index" }, "#" + stepNumber(i)), ...stepParts(moment.step));
        }
        if (i === 1 || row.classList.contains("new-turn")) row.prepend(html("span", { class: "turn-tag" }, "turn " + turnOf(i)));
        row.addEventListener("click", () => show(i));
        return row;
      });
      stepList.replaceChildren(...rows);

      const seat = replay.viewer_seat === undefined ? null : replay.viewer_seat;
      viewer.dataset.viewerSeat = seat === null ? "" : String(seat);
      viewer.dataset.moments = String(moments.length);
      seatSelect.value = seat === null ? "" : String(seat);
      for (const seatRow of document.querySelectorAll(".seats tr[data-seat]")) {
        seatRow.classList.toggle("viewing", Number(seatRow.dataset.seat) === seat);
      }
      $("scrub").max = last;
      const steps = stepNumber(last);
      $("step-count").textContent = `${steps} step${steps === 1 ? "" : "s"}`;
      if (replay.spectator) return; // a live match: the page's note says what a spectator is shown
      const note = seat === null
        ? "Everything, as the organiser sees it."
        : `Only what seat ${seat} learned: other seats' actions, replies, times and strikes are hidden.`;
      $("view-note").textContent = replayUrl ? note : note + " This file holds this view only.";
    }

    // --- moving through the match -------------------------------------------------------------------

    /* The moment a URL's fragment names; ``hash`` defaults to the address bar's. */
    function momentFromUrl(hash = window.location.hash) {
      if (/(?:^#|&)m=end(?:&|$)/.test(hash)) return last;
      const found = /(?:^#|&)m=(\d+)/.exec(hash);
      if (found) return momentOfSeq(Number(found[1]) - 1);
      return live ? last : 0;
    }

    function rememberInUrl() {
      clearTimeout(urlTimer);
      urlTimer = setTimeout(() => history.replaceState(null, "", "#m=" + stepNumber(current)), 120);
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
      box.replaceChildren(html("span", { class: "index" }, `step ${stepNumber(moment.index)} · ${moment.step.kind}`), ...stepParts(moment.step));
      box.className = "current-step" + (moment.step.strike ? " struck" : "");
    }

    function show(index) {
      const target = Math.max(0, Math.min(last, index));
      if (target === current) return;
      if (current >= 0 && rows[current]) rows[current].classList.remove("current");
      current = target;
      const moment = moments[current];
      draw(current);
      describeCurrent(moment);
      rows[current].classList.add("current");
      keepVisible(rows[current]);
      $("scrub").value = current;
      $("position").textContent = `step ${stepNumber(current)} of ${stepNumber(last)} · turn ${turnOf(current)}`;
      $("turn").value = turnOf(current);
      viewer.dataset.moment = current;
      viewer.dataset.step = String(stepNumber(current));
      setFollowing(live && current === last);
      rememberInUrl();
    }

    function setFollowing(on) {
      following = on;
      viewer.dataset.following = String(on);
      const control = $("follow");
      if (control) control.hidden = on;
    }

    /* The moment after the first step of turn ``turn`` (or of the first turn after it), or the last
     * moment when the match ended before it. */
    function turnStart(turn) {
      const found = moments.findIndex((moment, i) => i > 0 && turnOf(i) >= turn);
      return found === -1 ? last : found;
    }

    /* The first step of the turn before the one that starts at ``start``; the start of the match before the first. */
    function previousTurnStart(start) {
      return start <= 1 ? 0 : turnStart(turnOf(start - 1));
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

    // --- whose view -----------------------------------------------------------------------------------

    /* Loads the match as ``value`` saw it ("" for everyone), at the position closest to the one shown. */
    async function chooseView(value) {
      const before = replay.viewer_seat === null || replay.viewer_seat === undefined ? "" : String(replay.viewer_seat);
      const query = value === "" ? "" : "?seat=" + encodeURIComponent(value);
      const seq = seqOf(current);
      $("view-error").textContent = "";
      seatSelect.disabled = true;
      viewer.dataset.loading = "true";
      try {
        const response = await fetch(replayUrl + query, { headers: { Accept: "application/json" } });
        const data = await response.json().catch(() => ({}));
        if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
        const wasPlaying = timer !== null;
        pause();
        load(data);
        show(momentOfSeq(seq));
        clearTimeout(urlTimer);
        history.replaceState(null, "", window.location.pathname + query + "#m=" + stepNumber(current));
        const link = $("export-link");
        if (link) {
          const target = new URL(link.href);
          link.setAttribute("href", target.pathname + query);
        }
        seatSelect.blur(); // the arrow keys step through the match again
        if (wasPlaying) play();
      } catch (error) {
        seatSelect.value = before;
        $("view-error").textContent = `Cannot show that view: ${error.message}`;
      } finally {
        seatSelect.disabled = false;
        delete viewer.dataset.loading;
      }
    }

    // --- wiring -------------------------------------------------------------------------------------

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
    if (replayUrl) {
      seatSelect.addEventListener("change", () => chooseView(seatSelect.value));
    } else {
      seatSelect.disabled = true;
    }
    // The event's own URL, not the address bar: a pending rememberInUrl may rewrite the bar before it is read.
    window.addEventListener("hashchange", (event) => show(momentFromUrl(new URL(event.newURL).hash)));
    document.addEventListener("keydown", (event) => {
      const tag = event.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey || event.altKey) return;
      const turn = turnOf(current);
      const actions = {
        ArrowRight: () => show(event.shiftKey ? turnStart(turn + 1) : current + 1),
        ArrowLeft: () => show(event.shiftKey ? (turnStart(turn) >= current ? previousTurnStart(current) : turnStart(turn)) : current - 1),
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

    /* A match in flight (the live page): its new moments join the list; the moment shown stays, or
     * follows the newest when the newest was shown. */
    window.smtourney.extend = (more) => {
      const shown = current;
      const follow = following;
      replay.moments = moments.concat(more);
      load(replay);
      show(follow ? last : shown);
      setFollowing(follow || current === last);
    };
    /* Where the stored replay should open when a live match ends: its end, or the step shown. */
    window.smtourney.placeInReplay = () => (following ? "#m=end" : "#m=" + stepNumber(current));
    if ($("follow")) {
      $("follow").addEventListener("click", () => {
        show(last);
        setFollowing(true);
      });
    }
    load(JSON.parse($("replay-data").textContent));
    gameRegistered = (name) => {
      if (games[name] !== moduleOf(replay.match.game)) return;
      const shown = current;
      current = -1;
      show(shown);
    };
    show(momentFromUrl());
    viewer.dataset.ready = "true";
  }

  /* Game modules follow this script on the page: start once every script has run. */
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
