// A socket's push replaces parts of the page whole (htmx's ws extension swaps them out of
// band, without the focus keeping of htmx's own swaps): a keyboard user on a button in
// such a part was thrown back to the page's start at every push. A control marked
// data-focus="<key>" keeps the focus across a push: its new copy (the same key) takes it.
(function () {
  "use strict";
  var held = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var active = document.activeElement;
    held = active && active.hasAttribute && active.hasAttribute("data-focus") ? active : null;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var before = held;
    held = null;
    if (!before || document.body.contains(before)) return;
    var key = before.getAttribute("data-focus");
    var again = document.querySelector('[data-focus="' + CSS.escape(key) + '"]');
    if (again) again.focus({ preventScroll: true });
  });
})();
