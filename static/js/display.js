/* Large print and high contrast, remembered on this device (localStorage "display").
Not deferred: the classes are on <html> at the first paint, so a page never flashes small first.
The switch's buttons ([data-display-switch], hidden without JavaScript) turn each class on and off. */
(function () {
  "use strict";
  var KEY = "display";
  var NAMES = ["large-print", "high-contrast"];
  var root = document.documentElement;
  var chosen = {};
  try { chosen = JSON.parse(window.localStorage.getItem(KEY) || "{}") || {}; } catch (e) { chosen = {}; }
  NAMES.forEach(function (name) { root.classList.toggle(name, chosen[name] === true); });

  function save() {
    try { window.localStorage.setItem(KEY, JSON.stringify(chosen)); } catch (e) { /* kept for this page only */ }
  }

  function show() {
    var buttons = document.querySelectorAll("[data-display]");
    Array.prototype.forEach.call(buttons, function (button) {
      button.setAttribute("aria-pressed", String(root.classList.contains(button.getAttribute("data-display"))));
    });
  }

  function wire() {
    var boxes = document.querySelectorAll("[data-display-switch]");
    Array.prototype.forEach.call(boxes, function (box) {
      Array.prototype.forEach.call(box.querySelectorAll("[data-display]"), function (button) {
        button.addEventListener("click", function () {
          var name = button.getAttribute("data-display");
          chosen[name] = !root.classList.contains(name);
          root.classList.toggle(name, chosen[name]);
          save();
          show();
        });
      });
      box.hidden = false;
    });
    show();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
