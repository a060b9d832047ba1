// The desk's tab bar scrolls sideways on a phone: on load, bring the current tab into view (centred when it can
// be), so a late tab such as Histórico shows as selected. Without this script the bar still scrolls by hand.
(function () {
  document.querySelectorAll(".desk-head .tabs").forEach(function (nav) {
    var current = nav.querySelector('[aria-current="page"]');
    if (!current || nav.scrollWidth <= nav.clientWidth) { return; }
    var offset = current.getBoundingClientRect().left - nav.getBoundingClientRect().left + nav.scrollLeft;
    nav.scrollLeft = Math.max(0, offset - (nav.clientWidth - current.offsetWidth) / 2);
  });
})();
