// The replay viewer's arrow keys: ← and → follow the Previous and Next links, Home and
// End the First and Last ones. The links work by themselves without JavaScript.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    var which = KEYS[event.key];
    if (!which || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var link = document.querySelector('a[data-replay="' + which + '"]');
    if (!link || link.getAttribute("aria-disabled") === "true") return;
    event.preventDefault();
    window.location.assign(link.href);
  });
})();
