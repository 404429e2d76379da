/* Two-part moves on the page: the first click chooses, the second completes.
 *
 * A first part is a button in #board with data-part="a1" (its text) and data-ends, the
 * second parts it opens as JSON: [{cell, move, label, hint, best}] (games/formats/boards.py,
 * prepare_parts). Its click plays nothing: it is marked chosen (aria-pressed), and each
 * end's control (data-cell) becomes a submit button of the move form sending that move;
 * clicking the chosen part again, or Escape, takes the choice back; another first part
 * changes it. Without this script the same buttons send part=a1 and the server answers
 * with the page, that part chosen (?part=a1).
 *
 * A half-made move survives a re-render: the choice is kept in sessionStorage, keyed by
 * the page and the position's ply, and made again after every swap of the board (a push,
 * a clock's tick, a hint), as long as that part is still offered at that ply.
 *
 * This script names no game: it reads only the marks above.
 */
(function () {
  "use strict";
  var saved = new WeakMap(); // an end's control -> its attributes before the choice

  function board() {
    return document.getElementById("board");
  }

  function key() {
    var ply = document.querySelector("#board input[name=ply]");
    return "part:" + location.pathname + ":" + (ply ? ply.value : "");
  }

  function remember(part) {
    try {
      if (part) sessionStorage.setItem(key(), part);
      else sessionStorage.removeItem(key());
    } catch (e) { /* storage refused: the choice lasts until the next swap */ }
  }

  function recalled() {
    try {
      return sessionStorage.getItem(key());
    } catch (e) {
      return null;
    }
  }

  function firstPart(part) {
    var area = board();
    return area && area.querySelector('button[data-part="' + part + '"]');
  }

  function clear() {
    var area = board();
    if (!area) return;
    Array.prototype.forEach.call(area.querySelectorAll(".is-chosen"), function (button) {
      button.classList.remove("is-chosen");
      button.setAttribute("aria-pressed", "false");
    });
    Array.prototype.forEach.call(area.querySelectorAll(".is-end"), function (button) {
      var was = saved.get(button);
      if (!was) return;
      ["name", "value", "aria-label", "tabindex", "data-stop"].forEach(function (name) {
        if (was[name] === null) button.removeAttribute(name);
        else button.setAttribute(name, was[name]);
      });
      button.disabled = was.disabled;
      button.classList.remove("is-end");
      var hint = button.querySelector(".hint--end");
      if (hint) hint.remove();
    });
  }

  function choose(part) {
    clear();
    var first = firstPart(part);
    if (!first) return false;
    var ends;
    try {
      ends = JSON.parse(first.getAttribute("data-ends") || "[]");
    } catch (e) {
      return false;
    }
    first.classList.add("is-chosen");
    first.setAttribute("aria-pressed", "true");
    ends.forEach(function (end) {
      var button = board().querySelector('button[data-cell="' + end.cell + '"]');
      if (!button) return;
      var was = { disabled: button.disabled };
      ["name", "value", "aria-label", "tabindex", "data-stop"].forEach(function (name) {
        was[name] = button.getAttribute(name);
      });
      saved.set(button, was);
      button.setAttribute("name", "move");
      button.setAttribute("value", end.move);
      button.setAttribute("aria-label", end.label);
      button.disabled = false;
      button.classList.add("is-end");
      // keys.js roves among the marked stops: the ends join them while offered.
      if (board().querySelector("[data-stop]")) button.setAttribute("data-stop", "");
      if (end.hint) {
        var hint = document.createElement("span");
        hint.className = "hint hint--end hint--" + end.hint.kind + (end.best ? " is-best" : "");
        hint.title = end.hint.words;
        hint.setAttribute("aria-hidden", "true");
        hint.textContent = end.hint.icon + (end.hint.short ? " " + end.hint.short : "");
        button.appendChild(hint);
      }
    });
    return true;
  }

  // Before htmx hears of the form's submission: a first part's click plays nothing.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#board button[data-part]");
    if (!button || button.getAttribute("name") !== "part") return;
    event.preventDefault();
    event.stopPropagation();
    var part = button.getAttribute("data-part");
    if (button.classList.contains("is-chosen")) {
      clear();
      remember(null);
    } else if (choose(part)) {
      remember(part);
    }
  }, true);

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !board() || !board().querySelector(".is-chosen")) return;
    clear();
    remember(null);
  });

  // A move sent: the choice is spent.
  document.addEventListener("submit", function (event) {
    if (board() && event.target.contains(board())) remember(null);
  }, true);

  function restore() {
    var part = recalled();
    var area = board();
    if (!part || !area || area.querySelector(".is-chosen")) return;
    if (!choose(part)) remember(null); // no longer offered at this ply
  }

  restore();
  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:wsAfterMessage", restore);
})();
