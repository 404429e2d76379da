/* Keeps a keyboard player's place on the board across swaps.
 *
 * A move (or a push) replaces the board and the pieces: the focused cell goes with them
 * and the browser's focus falls back to the page, so the next Tab would start past the
 * board. When the last focus inside the board or the pieces came from the keyboard and
 * nothing else has taken the focus since, it goes back to the same cell or piece, or,
 * when that cannot be played now, to the next one that can (after the computer's reply,
 * or to the tray when a Quarto piece is to be given). Pointer users are left alone.
 */
(function () {
  "use strict";
  var AREAS = "#board, #pieces";
  var PLAYABLE = "#board button:not([disabled]), #pieces button:not([disabled])";
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

  function restore() {
    var active = document.activeElement;
    if (!place || !keyboard || (active && active !== document.body)) return;
    var playable = Array.prototype.slice.call(document.querySelectorAll(PLAYABLE));
    if (!playable.length) return; // nothing to play now (the others' turn): wait for the next swap
    var before = document.querySelector(place);
    var next = playable.filter(function (element) {
      return !before || element === before || before.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING;
    })[0];
    (next || playable[0]).focus();
  }

  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:wsAfterMessage", restore);
})();
