/* The round clocks tick down between two refreshes of the page's figures.

Each [data-clock] carries the seconds left when the server drew it (data-left) and its state.
A running clock counts down from the moment this script first saw it, by the browser's
monotonic clock (performance.now), never by its wall clock, which may be wrong: the time shown
is the server's. A refreshed part of the page brings new clocks, which start again from their
own figures. A clock with data-warn (seconds) shows its warning note once that little is
left (Hand and Foot warns the tables 15 minutes before time). Without JavaScript the figures are those of the page's last refresh.
Its words come from Django's JavaScript catalogue where the page loads it (config/i18n.py), else
they are the English written here. */
(function () {
  "use strict";
  var gettext = window.gettext || function (words) { return words; };
  var interpolate = window.interpolate || function (words, values) {
    return words.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
  function text(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = (h && m < 10 ? "0" : "") + m, ss = (r < 10 ? "0" : "") + r;
    return (h ? h + ":" : "") + mm + ":" + ss;
  }
  function tick() {
    var now = performance.now();
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      if (clock.getAttribute("data-state") !== "running") continue;
      if (!clock.hasAttribute("data-seen")) clock.setAttribute("data-seen", String(now));
      var left = Number(clock.getAttribute("data-left")) -
        (now - Number(clock.getAttribute("data-seen"))) / 1000;
      var time = clock.querySelector("[data-clock-time]");
      if (!time) continue;
      var warn = Number(clock.getAttribute("data-warn") || 0);
      var note = clock.querySelector("[data-clock-warning]");
      if (left <= 0) {
        time.textContent = gettext("Time is up");
        clock.classList.add("clock-over");
        clock.classList.remove("clock-warning");
        if (note) note.hidden = true;
      } else {
        time.textContent = interpolate(gettext("%(time)s left"), { time: text(left) }, true);
        var warned = warn > 0 && left <= warn;  // the game's warning before time (HF2.2)
        clock.classList.toggle("clock-warning", warned);
        if (note) note.hidden = !warned;
      }
    }
  }
  tick();
  window.setInterval(tick, 1000);
})();
