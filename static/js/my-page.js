/* A player's own page: a buzz and a beep when a new seat appears, if the player allows it.

The page's live part (live.js) brings the player's seats; its [data-seat-key] names the newest
("round:table:seat"). When an update brings another key, the newest seat is marked for a few
seconds and, if the "Buzz and beep" box is ticked (remembered on this device), the phone
vibrates where it can (navigator.vibrate) and plays a short tone (Web Audio). Ticking the box is
the tap that browsers ask before a page may vibrate or sound. */
(function () {
  "use strict";
  var KEY = "myPage.buzz";
  var part = document.querySelector("[data-live-src]");
  var box = document.querySelector("[data-buzz]");
  if (!part) return;
  var audio = null;

  function allowed() { return !!(box && box.checked); }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      var tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.2;
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.3);
    } catch (e) { /* no sound on this device */ }
  }

  function seatKey() {
    var holder = part.querySelector("[data-seat-key]");
    return holder ? holder.getAttribute("data-seat-key") : "";
  }

  if (box) {
    try { box.checked = window.localStorage.getItem(KEY) === "1"; } catch (e) { /* unticked */ }
    box.addEventListener("change", function () {
      try { window.localStorage.setItem(KEY, box.checked ? "1" : "0"); } catch (e) { /* this page only */ }
      if (box.checked) beep();
    });
  }

  var shown = seatKey();
  part.addEventListener("live:updated", function () {
    var now = seatKey();
    if (now && now !== shown) {
      var newest = part.querySelector(".my-seat.newest");
      if (newest) newest.classList.add("just-seated");
      part.setAttribute("data-new-seat", now);
      if (allowed()) {
        if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
        beep();
      }
    }
    shown = now;
  });
})();
