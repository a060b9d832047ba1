// A button marked data-print prints the page (no inline script: the pages keep a strict CSP possible).
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-print]");
  if (button) { window.print(); }
});
