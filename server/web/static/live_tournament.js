/* A running tournament's page: asks the server for the page's sections about once a second and swaps
 * in those that changed (progress and matches in flight, standings, bracket, head-to-head, seat table,
 * rating chart), so every section says what the stored matches say; stops once the run has ended,
 * the page then being the finished tournament's. The server renders the sections with the page's own
 * template, so names are escaped there. */
(function () {
  "use strict";
  const PERIOD_MS = 1000;
  const page = document.getElementById("tournament");
  const url = page.dataset.sections;

  function swap(html) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    for (const section of fresh.querySelectorAll("[data-section]")) {
      const shown = page.querySelector(`[data-section="${CSS.escape(section.dataset.section)}"]`);
      // Only what changed, so a table scrolled in its own box keeps its place between matches.
      if (shown !== null && shown.outerHTML !== section.outerHTML) shown.replaceWith(section);
    }
  }

  function running() {
    return document.getElementById("live").dataset.running === "true";
  }

  async function poll() {
    try {
      const response = await fetch(url, { cache: "no-store" });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      swap(await response.text());
    } catch (error) {
      document.getElementById("live-estimate").textContent = `cannot update: ${error.message}`;
    }
    if (running()) setTimeout(poll, PERIOD_MS);
  }
  setTimeout(poll, PERIOD_MS);
})();
