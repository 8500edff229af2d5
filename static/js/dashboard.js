// Re-fetch the live part every few seconds; skip while the tab is hidden, keep the old figures
// if the network hiccups (the next tick tries again).
(function () {
  var live = document.getElementById("live");
  var seconds = parseInt(live.dataset.seconds, 10) || 10;
  function refresh() {
    if (document.hidden) return;
    fetch(live.dataset.src, {credentials: "same-origin", headers: {"X-Requested-With": "fetch"}})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) live.innerHTML = html; })
      .catch(function () {});
  }
  setInterval(refresh, seconds * 1000);
})();
