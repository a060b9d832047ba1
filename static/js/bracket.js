// The bracket's "Deslize para o lado" hint only where the bracket overflows its box (walk review #25): checked on
// load, on resize and after htmx swaps the bracket in. Without this script the hint stays (CSS hides it only
// where the rounds surely fit).
(function () {
  function check() {
    document.querySelectorAll(".scroll-hint").forEach(function (hint) {
      var bracket = hint.nextElementSibling;
      if (!bracket || !bracket.classList.contains("bracket")) { return; }
      hint.hidden = bracket.scrollWidth <= bracket.clientWidth + 1;
    });
  }
  var pending = null;
  function later() {
    if (pending === null) { pending = window.requestAnimationFrame(function () { pending = null; check(); }); }
  }
  document.addEventListener("DOMContentLoaded", check);
  window.addEventListener("resize", later);
  document.addEventListener("htmx:afterSettle", later);
})();
