// The "incorporar" box (event and circuit pages): a "Copiar o código" button beside each code. Without this script
// the buttons stay hidden and the code is selected and copied by hand.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".incorporar-copy").forEach(function (button) {
      var area = document.getElementById(button.getAttribute("data-copy"));
      if (!area || !navigator.clipboard) { return; }
      var label = button.textContent;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(area.value).then(function () {
          button.textContent = button.getAttribute("data-done");
          window.setTimeout(function () { button.textContent = label; }, 2000);
        }, function () { area.select(); });
      });
    });
    document.querySelectorAll(".incorporar-code").forEach(function (area) {
      area.addEventListener("focus", function () { area.select(); });
    });
  });
})();
