// The TV mode (/torneios/<slug>/tv/): one slide at a time, a new slide every data-seconds seconds; after the
// last slide the page reloads, so the screen shows fresh scores. Without this script the slides are stacked.
(function () {
  "use strict";
  var slides = Array.prototype.slice.call(document.querySelectorAll(".tv-slide"));
  var seconds = parseInt(document.body.getAttribute("data-seconds"), 10) || 12;
  var current = 0;
  document.documentElement.classList.add("tv-cycling");
  function show(n) {
    slides.forEach(function (slide, k) { slide.hidden = k !== n; });
  }
  show(0);
  window.setInterval(function () {
    current += 1;
    if (current >= slides.length) {
      window.location.reload();
      return;
    }
    show(current);
  }, seconds * 1000);
  var full = document.getElementById("tv-tela-cheia");
  if (full && document.documentElement.requestFullscreen) {
    full.hidden = false;
    full.addEventListener("click", function () {
      document.documentElement.requestFullscreen().catch(function () {});
      full.hidden = true;
    });
  }
})();
