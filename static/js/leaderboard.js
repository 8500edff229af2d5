/* The live leaderboard, and the projector's pages.

Every second the table asks for its rows again, sending the version it shows (ETag) in
If-None-Match: the server answers 304 with no body while nothing changed, and the new rows once
something did, which replace the table body (no page reload). The projector shows
as many rows as fit on its screen at a time (projector.js's pagesOf; data-per-page without it)
and moves on to the next page each time. The time "updated" is the server's (X-Updated), the
hall's one clock, never the browser's. Without JavaScript the pages refresh themselves with
<meta http-equiv="refresh">. */
(function () {
  "use strict";
  // The page's language from the JavaScript catalog (/jsi18n/); English where a page loads none.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
  var board = document.querySelector("table[data-rows-url]");
  if (!board || !window.fetch) return;
  var body = board.tBodies[0];
  var url = board.getAttribute("data-rows-url");
  var every = (Number(board.getAttribute("data-every")) || 10) * 1000;
  var perPage = Number(board.getAttribute("data-per-page")) || 0;
  var page = Math.max(0, (Number(board.getAttribute("data-page")) || 1) - 1);
  // The projector's first rows are one page only: ask for all of them unconditionally.
  var etag = perPage ? "" : board.getAttribute("data-etag") || "";
  var updated = document.querySelector("[data-updated]");
  var counted = document.querySelector("[data-counted-words]");
  var pageLabel = document.querySelector("[data-page-label]");

  function refresh() {
    var headers = etag ? { "If-None-Match": etag } : {};
    return fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) return; // 304: the rows shown are the newest
        var version = response.headers.get("ETag") || "";
        var stamped = response.headers.get("X-Updated");
        return response.text().then(function (html) {
          body.innerHTML = html;
          etag = version;
          board.setAttribute("data-etag", version);
          if (updated && stamped) updated.textContent = stamped;
          if (counted) counted.textContent = decodeURIComponent(response.headers.get("X-Counted") || "");
        });
      })
      .catch(function () {}); // offline or busy: the next round trip tries again
  }

  function showPage() {
    var pages = window.kalookiPages;
    if (pages) {
      page = pages.showPage(board, pages.pagesOf(board), page, pageLabel);
      return;
    }
    var rows = body.rows;
    var count = Math.max(1, Math.ceil(rows.length / perPage));
    page = page % count;
    for (var i = 0; i < rows.length; i++) {
      rows[i].hidden = Math.floor(i / perPage) !== page;
    }
    if (pageLabel) {
      pageLabel.textContent = interpolate(gettext("Page %(page)s of %(pages)s"), { page: page + 1, pages: count }, true);
    }
  }

  // The rows are asked for every data-refresh seconds (a 304 while nothing changed); the
  // projector moves on to its next page every data-every seconds, from the rows it holds.
  var refreshEvery = (Number(board.getAttribute("data-refresh")) || every / 1000) * 1000;

  function follow() {
    refresh().then(function () {
      if (perPage) showPage();
      window.setTimeout(follow, refreshEvery);
    });
  }

  function turn() {
    page += 1;
    showPage();
    window.setTimeout(turn, every);
  }

  if (perPage) {
    refresh().then(function () {
      showPage();
      window.setTimeout(follow, refreshEvery);
      window.setTimeout(turn, every);
    });
  } else {
    window.setTimeout(follow, refreshEvery);
  }
})();
