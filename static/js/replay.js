// The replay viewer's arrow keys: ← and → step back and on, Home and End go to the first
// and last ply. The links work by themselves without JavaScript. A key fetches the ply
// and swaps it into this page (its address follows), so every press is handled by the
// same page: steps count from the ply last asked for, and a second press while the first
// is loading is a second step (a navigation would drop a press made while the next page
// loads). Answers that arrive late for a ply no longer wanted are dropped.
// The links themselves (a click, or Enter on one) go the same way, and the link that had
// the focus keeps it in the new ply's page.
// On load, the move list (a scroll box) shows the current move: the list scrolls, the page does not.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  var going = null; // the ply asked for by the last key press, while the page loads it

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
  // The review part arrives later (htmx swaps it in, the move list with it): show the move again.
  document.addEventListener("htmx:afterSettle", showCurrentMove);

  document.addEventListener("keydown", function (event) {
    var which = KEYS[event.key];
    if (!which || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var nav = document.querySelector(".replay__nav");
    if (!nav) return;
    var last = Number(nav.dataset.last);
    var from = going === null ? Number(nav.dataset.ply) : going;
    var to = { prev: from - 1, next: from + 1, first: 0, last: last }[which];
    to = Math.max(0, Math.min(last, to));
    event.preventDefault();
    if (to === from) return;
    going = to;
    show(to);
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-replay]");
    if (!link || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var to = Number(new URL(link.href).searchParams.get("ply"));
    if (!isFinite(to)) return;
    event.preventDefault();
    if (link.getAttribute("aria-disabled") === "true") return;
    going = to;
    show(to);
  });

  function show(ply) {
    var url = "?ply=" + ply;
    fetch(url, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        if (going !== ply) return; // a later press asked for another ply
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main.replay");
        var main = document.querySelector("main.replay");
        if (!fresh || !main) throw new Error("no replay in the answer");
        var active = document.activeElement;
        var focused = active && active.getAttribute ? active.getAttribute("data-replay") : null;
        main.replaceWith(fresh);
        var again = focused && fresh.querySelector('[data-replay="' + focused + '"]');
        if (again) again.focus({ preventScroll: true });
        if (window.htmx) window.htmx.process(fresh); // the review part asks for itself while computed
        history.replaceState(null, "", url);
        going = null;
        showCurrentMove();
      })
      .catch(function () {
        window.location.assign(url); // the link's own way
      });
  }
})();
