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

// A "Copiar o link" button (data-copy: the id of the field holding the link) copies the field's text; the status
// line beside it says so. Without the clipboard (an old browser, a page not on https), the link is selected for
// the person to copy by hand.
(function () {
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    var status = document.querySelector('[data-copy-status="' + button.getAttribute("data-copy") + '"]');
    if (!field) { return; }
    button.addEventListener("click", function () {
      field.focus();
      field.select();
      var said = function () { if (status) { status.textContent = button.getAttribute("data-copied"); } };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(field.value).then(said, function () { document.execCommand("copy") && said(); });
      } else if (document.execCommand("copy")) {
        said();
      }
    });
  });
})();
