// An embed (/embed/…) inside another site's <iframe>: tells the page around it how tall it is, as it loads, as it
// changes (htmx refreshes, a resized window) and only when it changes: a message {type: "zap:altura", height}
// that the "incorporar" code on that page reads to set the iframe's height. The height is all it says (any site
// may receive it: nothing else leaves the frame). Links to the rest of the site open in a new tab, not inside the
// small frame; the embed's own links (its pages, its theme) stay in it.
(function () {
  "use strict";
  var last = -1;
  function height() {
    return Math.ceil(document.body.getBoundingClientRect().height);
  }
  function announce() {
    var h = height();
    if (h === last || window.parent === window) { return; }
    last = h;
    window.parent.postMessage({ type: "zap:altura", height: h }, "*");
  }
  function outward(root) {
    (root || document).querySelectorAll("a[href]").forEach(function (a) {
      var url = new URL(a.getAttribute("href"), window.location.href);
      if (url.origin === window.location.origin && url.pathname.indexOf("/embed/") === 0) { return; }
      a.target = "_blank";
      a.rel = "noopener";
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    outward(document);
    announce();
    if (window.ResizeObserver) {
      new ResizeObserver(announce).observe(document.body);
    } else {
      window.addEventListener("resize", announce);
    }
  });
  window.addEventListener("load", announce);
  document.addEventListener("htmx:afterSettle", function (event) {
    outward(event.target);
    announce();
  });
})();
