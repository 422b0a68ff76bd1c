/// The dashboard `GET /` serves: what the cache holds, traffic and hit ratio, the upstream
/// lanes, open breakers, the prefetch queue, playback sessions and downloads. One page with its
/// style and script inline (no external assets, no build step); the script reads `/status`,
/// `/entries` and `/downloads` every two seconds and writes every value as text, never as
/// HTML, since URLs come from origins.
enum DashboardPage {
    static let html = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>SparseCache</title>
    <style>
    body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2330; }
    header { background: #1d2330; color: #fff; padding: 10px 20px; display: flex; gap: 24px; align-items: baseline; }
    header h1 { font-size: 18px; margin: 0; }
    header span { color: #b8c0d0; }
    main { padding: 16px 20px; display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 16px; }
    section { background: #fff; border: 1px solid #dde1e8; border-radius: 6px; padding: 10px 14px; overflow-x: auto; }
    section.wide { grid-column: 1 / -1; }
    h2 { font-size: 15px; margin: 0 0 8px; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 3px 8px 3px 0; border-bottom: 1px solid #eef0f4; vertical-align: top; }
    th { font-weight: 600; color: #4b5568; }
    td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    td.url { word-break: break-all; font-family: ui-monospace, monospace; font-size: 12px; }
    .bar { width: 120px; height: 10px; background: #e3e7ee; border-radius: 3px; overflow: hidden; }
    .bar > div { height: 100%; background: #2f7d4f; }
    .muted { color: #7a8396; }
    .error { color: #b3261e; }
    button { font: inherit; padding: 2px 10px; }
    </style>
    </head>
    <body>
    <header><h1>SparseCache</h1><span id="summary">loading…</span><span id="problem" class="error"></span></header>
    <main>
    <section><h2>Cache</h2><table id="cache"></table>
      <p id="hit-ratio-note" class="muted">The hit ratios count the cache's answers since the store was made, across restarts and
      by every program that used it (sparsecache fetch too): a hit is a response served wholly from the cache, a miss one that
      needed the origin; "of N" is hits plus misses. Traffic's requests are this proxy's since it started, every route
      included (this page's own), so the two numbers differ.</p></section>
    <section><h2>Traffic</h2><table id="traffic"></table></section>
    <section><h2>Upstream lanes</h2><table id="lanes"></table></section>
    <section><h2>Circuit breakers</h2><table id="breakers"></table></section>
    <section class="wide"><h2>Entries <span id="entries-range" class="muted"></span>
      <button id="previous">previous</button> <button id="next">next</button></h2>
      <table id="entries"></table></section>
    <section class="wide"><h2>Playback sessions</h2><table id="sessions"></table></section>
    <section class="wide"><h2>Downloads</h2><table id="downloads"></table></section>
    <section class="wide"><h2>Prefetch queue <span id="prefetch-summary" class="muted"></span></h2><table id="prefetch"></table></section>
    </main>
    <script>
    "use strict";
    const pageSize = 50;
    let offset = 0;
    let total = 0;

    function bytes(count) {
      if (count === null || count === undefined) return "–";
      const units = ["KiB", "MiB", "GiB", "TiB"];
      if (count < 1024) return count + " B";
      let value = count / 1024, unit = 0;
      while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
      return (Math.floor(value * 10) / 10).toFixed(1) + " " + units[unit];
    }
    function percent(part, whole) { return whole > 0 ? (100 * part / whole).toFixed(1) + " %" : "–"; }
    function cell(value, className) {
      const td = document.createElement("td");
      if (value instanceof Node) td.appendChild(value); else td.textContent = value === null || value === undefined ? "–" : String(value);
      if (className) td.className = className;
      return td;
    }
    function bar(fraction) {
      const outer = document.createElement("div");
      outer.className = "bar";
      const inner = document.createElement("div");
      inner.style.width = fraction === null ? "0" : Math.round(100 * Math.min(1, fraction)) + "%";
      outer.appendChild(inner);
      return outer;
    }
    function fill(id, headings, rows, empty) {
      const table = document.getElementById(id);
      table.replaceChildren();
      if (headings.length) {
        const head = document.createElement("tr");
        for (const heading of headings) { const th = document.createElement("th"); th.textContent = heading; head.appendChild(th); }
        table.appendChild(head);
      }
      for (const cells of rows) { const tr = document.createElement("tr"); for (const td of cells) tr.appendChild(td); table.appendChild(tr); }
      if (!rows.length) { const tr = document.createElement("tr"); const td = cell(empty, "muted"); td.colSpan = Math.max(1, headings.length); tr.appendChild(td); table.appendChild(tr); }
    }
    function pairs(id, list) { fill(id, [], list.map(([name, value]) => [cell(name), cell(value, "num")]), ""); }

    function showStatus(status) {
      const cache = status.cache, traffic = status.traffic;
      document.getElementById("summary").textContent =
        "version " + status.version + " · port " + status.port + " · up " + Math.round(status.uptimeSeconds) + " s";
      pairs("cache", [
        ["directory", cache.directory],
        ["size", bytes(cache.sizeBytes) + " of " + bytes(cache.limitBytes) + " (" + percent(cache.sizeBytes, cache.limitBytes) + ")"],
        ["entries", cache.entries],
        ["hit ratio (requests)", percent(cache.hits, cache.hits + cache.misses) + " of " + (cache.hits + cache.misses)],
        ["hit ratio (bytes)", percent(cache.bytesFromCache, cache.bytesFromCache + cache.bytesFromOrigin)],
        ["bytes from cache", bytes(cache.bytesFromCache)],
        ["bytes from origin", bytes(cache.bytesFromOrigin)],
        ["evictions", cache.evictions],
      ]);
      pairs("traffic", [
        ["requests", traffic.requests],
        ["open connections", traffic.openConnections],
        ["bytes served", bytes(traffic.bytesServed)],
        ["upstream requests", traffic.upstreamRequests],
        ["bytes fetched", bytes(traffic.bytesFetched)],
        ["passed through uncached", bytes(traffic.bytesPassedThrough)],
        ["read cold (out of memory)", bytes(traffic.bytesReadCold)],
        ["broken responses", traffic.brokenResponses],
        ["stale playlists served", traffic.stalePlaylistsServed],
      ]);
      fill("lanes", ["lane", "capacity", "active", "waiting", "completed"],
        [["express", status.express], ["segment", status.segment]].map(([name, lane]) =>
          [cell(name), cell(lane.capacity, "num"), cell(lane.active, "num"), cell(lane.waiting, "num"), cell(lane.completed, "num")]), "");
      fill("breakers", ["origin", "state"], Object.entries(status.breakers).map(([origin, state]) => [cell(origin, "url"), cell(state)]),
        "all closed: every origin answers");
      const prefetch = status.prefetch;
      document.getElementById("prefetch-summary").textContent =
        prefetch.queued + " queued, " + prefetch.running + " running, " + prefetch.finished + " finished, " + bytes(prefetch.bytesFetched) + " fetched";
      fill("prefetch", ["state", "url", "fetched", "budget", "detail"], prefetch.jobs.map(job =>
        [cell(job.state), cell(job.url, "url"), cell(bytes(job.bytesFetched), "num"), cell(job.budget), cell(job.detail)]), "nothing queued");
      fill("sessions", ["id", "state", "playing", "quality", "position", "buffered ahead", "served", "from origin"],
        status.sessions.map(session => [
          cell(session.id), cell(session.state), cell(session.urls.join(" + "), "url"),
          cell(session.quality ? (session.quality.resolution || session.quality.bandwidth + " bit/s") : "any"),
          cell(session.position ? session.position.seconds.toFixed(1) + " s" : null, "num"),
          cell(session.bufferedAheadSeconds.toFixed(1) + " s (" + session.bufferedSegments + " segments)", "num"),
          cell(bytes(session.bytesServed), "num"), cell(bytes(session.bytesFromOrigin), "num")]), "no sessions");
    }

    function showEntries(page) {
      total = page.total;
      const last = Math.min(page.total, page.offset + page.entries.length);
      document.getElementById("entries-range").textContent =
        page.total ? (page.offset + 1) + "–" + last + " of " + page.total + ", most recently used first" : "";
      fill("entries", ["url", "cached", "length", "coverage", "last use", "pinned"], page.entries.map(entry => [
        cell(entry.url, "url"), cell(bytes(entry.cachedBytes), "num"), cell(bytes(entry.contentLength), "num"),
        cell(bar(entry.coverage)), cell(new Date(entry.lastAccess).toLocaleString()), cell(entry.pinned ? "yes" : "")]),
        "the cache is empty");
      document.getElementById("previous").disabled = page.offset === 0;
      document.getElementById("next").disabled = last >= page.total;
    }

    function showDownloads(downloads) {
      fill("downloads", ["id", "state", "url", "resources", "segments", "fetched", "error"], downloads.map(download => [
        cell(download.id), cell(download.state), cell(download.url, "url"),
        cell(download.resourcesDone + " / " + download.resources, "num"), cell(download.segmentsDone + " / " + download.segments, "num"),
        cell(bytes(download.bytes), "num"), cell(download.error, download.error ? "error" : "muted")]), "no downloads");
    }

    // A proxy that requires a control token gets it from the page's fragment (/#token=...),
    // which the browser never sends anywhere.
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    async function json(path) {
      const response = await fetch(path, { cache: "no-store", headers: token ? { Authorization: "Bearer " + token } : {} });
      if (response.status === 401) {
        throw new Error(token ? "the token in this page's address is not the proxy's --control-token"
          : "this proxy has a control token: open this page as /#token=<the --control-token>");
      }
      if (!response.ok) throw new Error(path + " answered " + response.status);
      return response.json();
    }
    async function refresh() {
      try {
        const [status, page, downloads] = await Promise.all([
          json("/status"), json("/entries?offset=" + offset + "&limit=" + pageSize), json("/downloads")]);
        showStatus(status);
        showEntries(page);
        showDownloads(downloads);
        document.getElementById("problem").textContent = "";
      } catch (error) {
        document.getElementById("problem").textContent = "the proxy does not answer: " + error.message;
      }
    }
    document.getElementById("previous").onclick = () => { offset = Math.max(0, offset - pageSize); refresh(); };
    document.getElementById("next").onclick = () => { if (offset + pageSize < total) { offset += pageSize; refresh(); } };
    refresh();
    setInterval(refresh, 2000);
    </script>
    </body>
    </html>

    """#
}
