/* The hall's projector pages: as many rows as the screen shows, a page at a time.

`pagesOf` measures the screen: every row of the table laid out once, then cut into pages of the
rows that fit between the top of its body and the bottom of the window, so that every row of
each page is seen, from 1024x768 to 4K. Rows differ in height (a long name wraps onto a second
line rather than being cut; large print makes them all taller), so a page holds as many as fit.
The seating board and the season's table ([data-board]) are paged here; the leaderboard's
projector uses `pagesOf` from leaderboard.js. Without JavaScript the server's pages of a fixed
size refresh themselves. */
(function () {
  "use strict";
  // The page's language from the JavaScript catalog (/jsi18n/); English where a page loads none.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };

  // The first row of each page: rows are added to a page while their bottom is on the screen.
  function pagesOf(table) {
    var rows = table.tBodies[0].rows;
    if (!rows.length) return [0];
    var hidden = [];
    for (var i = 0; i < rows.length; i++) { hidden.push(rows[i].hidden); rows[i].hidden = false; }
    var top = table.tBodies[0].getBoundingClientRect().top;
    var room = window.innerHeight - top - Math.max(8, window.innerHeight * 0.015);
    var starts = [0], used = 0;
    for (var j = 0; j < rows.length; j++) {
      var height = rows[j].getBoundingClientRect().height || 1;
      if (used > 0 && used + height > room) { starts.push(j); used = 0; }
      used += height;
    }
    for (var k = 0; k < rows.length; k++) rows[k].hidden = hidden[k];
    return starts;
  }

  // Shows page `page` (wrapping round) of `starts`, and says which it is; returns the page shown.
  function showPage(table, starts, page, label) {
    var rows = table.tBodies[0].rows;
    page = page % starts.length;
    var first = starts[page], end = page + 1 < starts.length ? starts[page + 1] : rows.length;
    for (var i = 0; i < rows.length; i++) rows[i].hidden = i < first || i >= end;
    if (label) {
      label.textContent = interpolate(gettext("Page %(page)s of %(pages)s"), { page: page + 1, pages: starts.length }, true);
    }
    return page;
  }
  window.kalookiPages = { pagesOf: pagesOf, showPage: showPage };

  var board = document.querySelector("table[data-board]");
  if (!board) return;
  var every = (Number(board.getAttribute("data-every")) || 10) * 1000;
  var label = document.querySelector("[data-page-label]");
  var page = 0;

  function show() { page = showPage(board, pagesOf(board), page, label); }
  show();
  window.addEventListener("resize", show);
  window.setInterval(function () { page += 1; show(); }, every);
})();
