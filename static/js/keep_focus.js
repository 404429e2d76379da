// Swaps replace parts of a page whole: a socket's push (htmx's ws extension swaps out of
// band, without the focus keeping of htmx's own swaps) or an answer's out-of-band parts.
// A keyboard user on a control in such a part fell back to the page's start. A control
// marked data-focus="<key>" keeps the focus: the new control with the same key takes it
// (controls that stand in one place share a key: "Offer draw" and its "Withdraw"); when
// none has it, the part marked data-focus-area (with tabindex="-1") that held the control
// does, so the next Tab goes on from there.
(function () {
  "use strict";
  var held = null; // the focused control's key and area, while it has the focus

  document.addEventListener("focusin", function (event) {
    var target = event.target;
    var key = target.getAttribute ? target.getAttribute("data-focus") : null;
    var area = target.closest ? target.closest("[data-focus-area]") : null;
    held = key || area ? { element: target, key: key, area: area && area.id } : null;
  });

  function restore() {
    if (!held || document.body.contains(held.element)) return;
    var active = document.activeElement;
    if (active && active !== document.body) return; // something else has it now
    var again = held.key ? document.querySelector('[data-focus="' + CSS.escape(held.key) + '"]') : null;
    again = again || (held.area ? document.getElementById(held.area) : null);
    if (again) again.focus({ preventScroll: true });
  }

  // After all of a push's or an answer's swaps, not after each: a control's new copy may
  // come in a later part than the one that took the old one away.
  document.addEventListener("htmx:wsAfterMessage", restore);
  document.addEventListener("htmx:afterSettle", restore);
})();
