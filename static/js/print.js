// The print pages' Print button opens the browser's print dialog.
document.querySelectorAll("[data-action=print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});
