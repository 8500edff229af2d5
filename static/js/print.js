// The print toolbar's Print button opens the browser's print dialog.
(function () {
  var buttons = document.querySelectorAll("[data-print]");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener("click", function () { window.print(); });
  }
})();
