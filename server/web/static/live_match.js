/* A match in flight, watched as a spectator sees it: asks the server for the moments played since
 * the last ones shown, about once a second, and hands them to the viewer; once the match is stored,
 * opens its full replay at the same place (its last moment when the page was following). */
(function () {
  "use strict";
  const PERIOD_MS = 1000;
  const url = document.getElementById("live-script").dataset.liveUrl;
  const viewer = document.getElementById("viewer");
  const status = document.getElementById("live-status");
  let known = Number(viewer.dataset.moments);

  async function poll() {
    try {
      const response = await fetch(url + "?after=" + known, { headers: { Accept: "application/json" } });
      const data = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
      if (data.status === "done") {
        status.textContent = "The match has ended: opening its replay.";
        viewer.dataset.live = "ended";
        window.location.replace(data.replay_url + window.smtourney.placeInReplay());
        return;
      }
      if (data.moments.length) {
        window.smtourney.extend(data.moments);
        known += data.moments.length;
      }
      viewer.dataset.live = "playing";
      viewer.dataset.liveSteps = String(data.steps);
      status.textContent = `Live: ${data.steps} steps played so far; ${known - 1} shown to spectators.`;
    } catch (error) {
      status.textContent = `Cannot update: ${error.message}. Trying again.`;
    }
    setTimeout(poll, PERIOD_MS);
  }
  setTimeout(poll, PERIOD_MS);
})();
