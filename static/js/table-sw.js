/* The table pages' service worker (served from /t/sw.js by entry/pwa.py, scope /t/).

   A table's page is kept each time it is shown, so that a page opened once opens again without
   the network (the last version seen, which the page says). Its assets (styles, scripts, icons)
   are kept when the worker installs. Nothing else is touched: the API, the live check and every
   POST go to the network as they are, and a result typed offline waits in the page's own outbox
   (static/js/table-entry.js), which sends it when the network returns. The scripts' words
   (/jsi18n/?l=..., config/i18n.py) are kept with the assets in the language the worker was
   fetched in; its own offline page is in that language too (entry/pwa.py fills both in). */
"use strict";

var CACHE = "table-__VERSION__";
var ASSETS = ["__ASSETS__"];
var OFFLINE = "__OFFLINE__";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("table-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
      .then(keepOpenPages)
  );
});

/* The page that installed the worker was fetched before it: keep it now, so that it opens
   offline from the very first visit. */
function keepOpenPages() {
  return self.clients.matchAll({ type: "window" }).then(function (windows) {
    return Promise.all(windows.map(function (client) {
      var url = new URL(client.url);
      if (url.origin !== self.location.origin || !isTablePage(url)) return null;
      return fetch(url.pathname, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) return null;
        return caches.open(CACHE).then(function (cache) {
          return cache.put(url.origin + url.pathname, response);
        });
      }).catch(function () { return null; });
    }));
  });
}

function isTablePage(url) {
  // /t/<token>/ itself: not its live, check, manifest or correction addresses
  return /^\/t\/[^/]+\/$/.test(url.pathname);
}

/* The page: from the network when it answers, kept for next time; else the kept copy. */
function page(request) {
  var url = new URL(request.url);
  var key = url.origin + url.pathname;
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(key, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(key).then(function (kept) {
      return kept || new Response(OFFLINE, {
        status: 503, headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    });
  });
}

/* An asset: the kept copy at once; the network refreshes it for next time. */
function asset(request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request).then(function (kept) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
      return kept || fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && isTablePage(url)) {
    event.respondWith(page(request));
  } else if (ASSETS.indexOf(url.pathname + url.search) >= 0) {
    event.respondWith(asset(request));
  }
});
