/* Keeps a keyboard player's place on the board across swaps.
 *
 * A move (or a push) replaces the board and the pieces: the focused cell goes with them
 * and the browser's focus falls back to the page, so the next Tab would start past the
 * board. When the last focus inside the board or the pieces came from the keyboard and
 * nothing else has taken the focus since, it goes back to the same cell or piece, or,
 * when that cannot be played now, to the next one that can (after the computer's reply,
 * or to the pieces when a piece is to be chosen; for a control the game takes out of the
 * Tab order, to the one of the same column that stands for it). Pointer users are left alone.
 *
 * Arrow keys move between the controls of an area (#board, #pieces); Tab moves between
 * the areas and the actions (a roving tabindex, as in the WAI-ARIA grid pattern): each
 * area has one Tab stop, the control last focused there.
 *
 * What a game's partials mark (this script names no game and no game's class):
 * - a control is an enabled <button> in #board or #pieces; it names itself with
 *   data-cell="b3" (a square, named like a chess square: the arrows follow files and
 *   ranks) or data-control="any-id" (placed by its data-slot, below);
 * - data-slot on every slot of a laid-out group, taken or not (a tray): the arrows follow
 *   the slots' rows as the page lays them out, so a used slot keeps its place;
 * - tabindex="-1" from the server takes a control out of the Tab order, another standing
 *   for it (every cell of a column that drops the same stone: its landing cell);
 * - data-stop is this script's own mark: the controls it roves among, set on fresh markup.
 */
(function () {
  "use strict";
  var AREAS = "#board, #pieces";
  // Out of the Tab order (tabindex -1): controls a game marks as standing for another
  // (every cell of a column that drops the same stone: the landing cell stands for them).
  var PLAYABLE = "#board button:not([disabled]):not([tabindex='-1']), #board button[data-stop]:not([disabled]), #pieces button:not([disabled])";
  var keyboard = false;
  var place = null; // the selector of the last control focused inside the board or pieces

  function selectorOf(element) {
    if (element.dataset.cell) return '[data-cell="' + element.dataset.cell + '"]';
    if (element.dataset.control) return '[data-control="' + element.dataset.control + '"]';
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

  var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  // Where each stop stands: x to the right, y downwards. Cells by their names (the file's
  // letter, the rank's number; the first rank in the page is the top one); other controls
  // by their place among the area's slots, row by row as laid out.
  function positions(area, stops) {
    if (stops[0].dataset.cell) {
      var cells = area.querySelectorAll("[data-cell]");
      var rank = function (e) { return Number(e.dataset.cell.replace(/^\D+/, "")); };
      var down = rank(cells[0]) > rank(cells[cells.length - 1]) ? -1 : 1;
      return stops.map(function (e) { return [e.dataset.cell.charCodeAt(0), down * rank(e)]; });
    }
    var slots = Array.prototype.slice.call(area.querySelectorAll("[data-slot]"));
    var columns = slots.filter(function (e) { return e.offsetTop === slots[0].offsetTop; }).length || 1;
    return stops.map(function (e) {
      var i = slots.indexOf(e);
      return [i % columns, Math.floor(i / columns)];
    });
  }

  // The nearest stop in the arrow's direction: along it first, then the least off its line.
  function neighbour(area, stops, from, step) {
    var at = positions(area, stops);
    var here = at[stops.indexOf(from)];
    var best = null;
    var bestKey = null;
    stops.forEach(function (e, i) {
      var dx = at[i][0] - here[0], dy = at[i][1] - here[1];
      var along = dx * step[0] + dy * step[1];
      if (along <= 0) return;
      var key = [along, Math.abs(step[0] ? dy : dx)];
      if (!bestKey || key[1] < bestKey[1] || (key[1] === bestKey[1] && key[0] < bestKey[0])) {
        best = e;
        bestKey = key;
      }
    });
    return best;
  }

  function stopsOf(area) {
    var marked = area.querySelectorAll("[data-stop]");
    if (!marked.length) {
      // Fresh markup: the controls that can be played (not those the game took out of the Tab order).
      marked = area.querySelectorAll("button:not([disabled]):not([tabindex='-1'])");
      Array.prototype.forEach.call(marked, function (e) { e.setAttribute("data-stop", ""); });
    }
    return Array.prototype.slice.call(marked).filter(function (e) { return !e.disabled; });
  }

  var stopOf = {}; // the last stop of each area, by selector
  function rove() {
    Array.prototype.forEach.call(document.querySelectorAll(AREAS), function (area) {
      var stops = stopsOf(area);
      if (!stops.length) return;
      var active = stops.indexOf(document.activeElement) >= 0 ? document.activeElement : null;
      var kept = stopOf[area.id] && area.querySelector(stopOf[area.id]);
      var stop = active || (stops.indexOf(kept) >= 0 ? kept : stops[0]);
      stops.forEach(function (e) { e.tabIndex = e === stop ? 0 : -1; });
      stopOf[area.id] = selectorOf(stop);
    });
  }

  document.addEventListener("keydown", function (event) {
    var step = STEPS[event.key];
    var target = event.target;
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var area = target.closest && target.closest(AREAS);
    if (!area || !target.hasAttribute("data-stop")) return;
    event.preventDefault();
    var next = neighbour(area, stopsOf(area), target, step);
    if (!next) return;
    target.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  document.addEventListener("focusin", function (event) {
    if (event.target.hasAttribute && event.target.hasAttribute("data-stop")) rove();
  });

  function settle() {
    restore();
    rove();
  }
  rove();
  document.addEventListener("htmx:afterSettle", settle);
  document.addEventListener("htmx:oobAfterSwap", settle);
  document.addEventListener("htmx:wsAfterMessage", settle);
})();
