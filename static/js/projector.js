/* The hall's projector pages: as many rows as the screen shows, a page at a time.

`fitRows` measures the screen: how many rows of the table fit between the top of its body and
the bottom of the window, so that every row of each page is seen, from 1024x768 to 4K. The
seating board ([data-board]) is paged here; the leaderboard's projector uses `fitRows` from
leaderboard.js. Without JavaScript the server's pages of a fixed size refresh themselves. */
(function () {
  "use strict";
  function fitRows(table, fallback) {
    var body = table.tBodies[0];
    var rows = body.rows;
    if (!rows.length) return fallback;
    var hidden = rows[0].hidden;
    rows[0].hidden = false;
    var top = body.getBoundingClientRect().top;
    var height = rows[0].getBoundingClientRect().height || 1;
    rows[0].hidden = hidden;
    var room = window.innerHeight - top - Math.max(8, window.innerHeight * 0.015);
    return Math.max(1, Math.floor(room / height));
  }
  window.kalookiFitRows = fitRows;
  // The page's language from the JavaScript catalog (/jsi18n/); English where a page loads none.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };

  var board = document.querySelector("table[data-board]");
  if (!board) return;
  var every = (Number(board.getAttribute("data-every")) || 10) * 1000;
  var fallback = Number(board.getAttribute("data-per-page")) || 15;
  var page = Math.max(0, (Number(board.getAttribute("data-page")) || 1) - 1);
  var label = document.querySelector("[data-page-label]");

  function show() {
    var rows = board.tBodies[0].rows;
    var perPage = fitRows(board, fallback);
    var pages = Math.max(1, Math.ceil(rows.length / perPage));
    page = page % pages;
    for (var i = 0; i < rows.length; i++) {
      rows[i].hidden = Math.floor(i / perPage) !== page;
    }
    if (label) {
      label.textContent = interpolate(gettext("Page %(page)s of %(pages)s"), { page: page + 1, pages: pages }, true);
    }
  }
  page = 0;
  show();
  window.addEventListener("resize", show);
  window.setInterval(function () { page += 1; show(); }, every);
})();
