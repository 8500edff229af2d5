/* Large print and high contrast, remembered on this device.

Loaded in the page's <head>, before the body is drawn (not deferred), so that the classes are on
<html> at the first paint: a page never flashes small or pale first. The switch's buttons
([data-display-switch], hidden without JavaScript) turn each class on and off; localStorage
keeps them ("display": {"large-print": true, "high-contrast": true}) for every page of the site
on this device. Without localStorage (a private window that refuses it) the switch still works
for the page shown. */
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

  function wire() {
    var box = document.querySelector("[data-display-switch]");
    if (!box) return;
    var buttons = box.querySelectorAll("[data-display]");
    Array.prototype.forEach.call(buttons, function (button) {
      var name = button.getAttribute("data-display");
      button.setAttribute("aria-pressed", String(root.classList.contains(name)));
      button.addEventListener("click", function () {
        chosen[name] = !root.classList.contains(name);
        root.classList.toggle(name, chosen[name]);
        button.setAttribute("aria-pressed", String(chosen[name]));
        save();
      });
    });
    box.hidden = false;
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
