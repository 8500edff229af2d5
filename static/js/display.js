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
