/* Parts of a page that update by themselves: a hall that lives without reloads.

Each [data-live-src] element asks its address again every data-live-every seconds, sending the
version it shows (ETag) in If-None-Match: the server answers 304 with no body while nothing
changed, and the new part once something did, which replaces the element's content (no page
reload, the scroll position kept). A part with data-pulse-src also asks that address every
data-pulse-every seconds (a few bytes, a 304 while nothing it shows changed) and fetches the
part at once when it changed: a saved result shows within about a second, and the part itself
is fetched only on a change (or every data-live-every seconds, for the clock's state). A hidden
tab asks nothing; it catches up when shown. Without
JavaScript the page shows what it had when it was loaded (and refreshes itself where it has a
<meta http-equiv="refresh">). */
(function () {
  "use strict";
  if (!window.fetch) return;
  var parts = document.querySelectorAll("[data-live-src]");

  function follow(part) {
    var url = part.getAttribute("data-live-src");
    var every = (Number(part.getAttribute("data-live-every")) || 10) * 1000;
    var etag = part.getAttribute("data-etag") || "";

    function refresh() {
      if (document.hidden) return Promise.resolve();
      var headers = etag ? { "If-None-Match": etag } : {};
      return fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status !== 200) return; // 304: the part shown is the newest
          var version = response.headers.get("ETag") || "";
          return response.text().then(function (html) {
            part.innerHTML = html;
            etag = version;
            part.setAttribute("data-etag", version);
            part.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
          });
        })
        .catch(function () {}); // offline or busy: the next round trip tries again
    }

    function tick() {
      refresh().then(function () { window.setTimeout(tick, every); });
    }
    window.setTimeout(tick, every);
    var pulseUrl = part.getAttribute("data-pulse-src");
    if (pulseUrl) followPulse(pulseUrl, part, refresh);
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) refresh();
    });
  }

  // The pulse: a 304 while nothing the part shows changed; a new ETag fetches the part now.
  function followPulse(url, part, refresh) {
    var every = (Number(part.getAttribute("data-pulse-every")) || 1) * 1000;
    var pulse = "";

    function ask() {
      if (document.hidden) return Promise.resolve();
      var headers = pulse ? { "If-None-Match": pulse } : {};
      return fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status !== 200) return;
          pulse = response.headers.get("ETag") || "";
          return refresh(); // a 304 when the part was drawn after the change
        })
        .catch(function () {});
    }

    function tick() {
      ask().then(function () { window.setTimeout(tick, every); });
    }
    tick();
  }

  for (var i = 0; i < parts.length; i++) follow(parts[i]);
})();
