// The set-up page's rows (a schedule of games): "Add a row" and "Remove" buttons instead of the
// blank rows and tick boxes the page offers without JavaScript. The server reads the same names.
(function () {
  "use strict";

  // The page's language: Django's JavaScript catalog (/jsi18n/), else the English as written.
  var gettext = window.gettext || function (text) { return text; };
  function rowLabel(column, place) {
    var format = gettext("%(column)s, row %(row)s");
    return format.replace("%(column)s", column).replace("%(row)s", String(place));
  }

  function renumber(fieldset) {
    var rows = fieldset.querySelectorAll("tr[data-row]");
    var name = fieldset.getAttribute("data-rows");
    var place = 0;
    rows.forEach(function (row, index) {
      row.querySelectorAll("input").forEach(function (input) {
        var column = input.name.split("-").pop(); // a property's name has no "-"
        input.name = name + "-" + index + "-" + column;
      });
      var removed = row.querySelector("[data-remove]").checked;
      if (!removed && !row.hidden) {
        place += 1;
        row.querySelector("[data-place]").textContent = String(place);
        row.querySelectorAll("input:not([data-remove])").forEach(function (input) {
          var column = input.name.split("-").pop();
          input.setAttribute("aria-label", rowLabel(column.replace(/_/g, " "), place));
        });
      }
    });
    fieldset.querySelector("[data-rows-count]").value = String(rows.length);
  }

  function removeButton(fieldset, row) {
    var box = row.querySelector("[data-remove]");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "link";
    button.textContent = gettext("Remove");
    button.addEventListener("click", function () {
      box.checked = true;
      row.hidden = true;
      renumber(fieldset);
    });
    box.hidden = true;
    box.parentNode.appendChild(button);
  }

  function enhance(fieldset) {
    var body = fieldset.querySelector("tbody");
    var blanks = Array.prototype.slice.call(body.querySelectorAll("tr[data-blank]"));
    var template = blanks.length ? blanks[0].cloneNode(true) : null;
    blanks.forEach(function (row) { row.remove(); });
    body.querySelectorAll("tr[data-row]").forEach(function (row) { removeButton(fieldset, row); });
    var head = fieldset.querySelector("thead th:last-child");
    if (head) { head.textContent = ""; head.setAttribute("aria-label", gettext("Remove")); }
    if (template) {
      var add = document.createElement("button");
      add.type = "button";
      add.className = "secondary";
      add.textContent = gettext("Add a row");
      add.addEventListener("click", function () {
        var row = template.cloneNode(true);
        row.removeAttribute("data-blank");
        body.appendChild(row);
        removeButton(fieldset, row);
        renumber(fieldset);
        var first = row.querySelector("input:not([data-remove])");
        if (first) { first.focus(); }
      });
      fieldset.appendChild(add);
    }
    renumber(fieldset);
  }

  document.querySelectorAll("fieldset[data-rows]").forEach(enhance);
})();
