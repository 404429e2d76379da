/* Keeps a keyboard player's place on the board across swaps.
 *
 * A move (or a push) replaces the board and the pieces: the focused cell goes with them
 * and the browser's focus falls back to the page, so the next Tab would start past the
 * board. When the last focus inside the board or the pieces came from the keyboard and
 * nothing else has taken the focus since, it goes back to the same cell or piece, or,
 * when that cannot be played now, to the next one that can (after the computer's reply,
 * or to the tray when a Quarto piece is to be given; in connect-N, to where the next
 * stone of the same column would land). Pointer users are left alone.
 */
(function () {
  "use strict";
  var AREAS = "#board, #pieces";
  // Out of the Tab order (tabindex -1): connect-N's cells above or below where a stone
  // would land; their column's landing cell stands for them.
  var PLAYABLE = "#board button:not([disabled]):not([tabindex='-1']), #pieces button:not([disabled])";
  var keyboard = false;
  var place = null; // the selector of the last control focused inside the board or pieces

  function selectorOf(element) {
    if (element.dataset.cell) return '[data-cell="' + element.dataset.cell + '"]';
    if (element.dataset.piece) return 'button[data-piece="' + element.dataset.piece + '"]';
    return null;
  }

  document.addEventListener("keydown", function () {
    keyboard = true;
  }, true);
  document.addEventListener("pointerdown", function () {
    keyboard = false;
  }, true);
  document.addEventListener("focusin", function (event) {
    var inside = event.target.closest && event.target.closest(AREAS);
    place = inside && keyboard ? selectorOf(event.target) : null;
  });

  function fileOf(element) {
    return (element.dataset.cell || "").replace(/\d+$/, "");
  }

  function sameColumn(cell, playable) {
    return playable.filter(function (element) {
      return element.dataset.cell && fileOf(element) === fileOf(cell);
    })[0] || null;
  }

  function restore() {
    var active = document.activeElement;
    if (!place || !keyboard || (active && active !== document.body)) return;
    var playable = Array.prototype.slice.call(document.querySelectorAll(PLAYABLE));
    if (!playable.length) return; // nothing to play now (the others' turn): wait for the next swap
    var before = document.querySelector(place);
    var column = before && before.tabIndex < 0 ? sameColumn(before, playable) : null;
    if (column) {
      column.focus(); // a stone was dropped here: stay on its column
      return;
    }
    var next = playable.filter(function (element) {
      return !before || element === before || before.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING;
    })[0];
    (next || playable[0]).focus();
  }

  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:wsAfterMessage", restore);
})();
