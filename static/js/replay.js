// The replay viewer's arrow keys: ← and → follow the Previous and Next links, Home and
// End the First and Last ones. The links work by themselves without JavaScript.
// On load, the move list (a scroll box) shows the current move: the list scrolls, the page does not.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  function showCurrentMove() {
    var list = document.querySelector(".replay__moves");
    var current = list && list.querySelector(".is-current");
    if (!current || list.scrollHeight <= list.clientHeight) return;
    // Not scrollIntoView(): it would scroll the page too. The move goes to the list's middle.
    var offset = current.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientTop;
    list.scrollTop += offset - (list.clientHeight - current.offsetHeight) / 2;
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showCurrentMove);
  } else {
    showCurrentMove();
  }

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
