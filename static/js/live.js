/* Parts of a page that update by themselves: a hall that lives without reloads.

Each [data-live-src] element asks its address again every data-live-every seconds, sending the
version it shows (ETag) in If-None-Match: the server answers 304 with no body while nothing
changed, and the new part once something did, which replaces the element's content (no page
reload, the scroll position kept). A hidden tab asks nothing; it catches up when shown. Without
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
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) refresh();
    });
  }

  for (var i = 0; i < parts.length; i++) follow(parts[i]);
})();
