/* Blind auction board for the smtourney web viewer: the prize, scores, hands and the last bids. */
(function () {
  "use strict";
  window.smtourney.registerGame("blind_auction", {
    draw(board, view, ctx) {
      const rows = view.scores.map((score, seat) => {
        const hand = Array.isArray(view.hands[seat]) ? view.hands[seat].join(" ") : `${view.hands[seat]} cards`;
        return `<tr><td>${ctx.seatName(seat)}</td><td>${score}</td><td>${hand}</td><td>${view.last_bids[seat] || ""}</td></tr>`;
      });
      board.innerHTML =
        `<p>Round ${view.round}: prize ${view.prize} (${view.prizes_left} left)</p>` +
        `<table><tr><th>seat</th><th>score</th><th>hand</th><th>last bid</th></tr>${rows.join("")}</table>`;
    },
  });
})();
