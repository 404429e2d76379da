// The lobby's live list: a pushed list holds every open seek; this page shows the game it
// filters by (the page without JavaScript is filtered by the server).
(function () {
  "use strict";
  function filter() {
    var main = document.querySelector(".lobby[data-game]");
    if (!main) return;
    var game = main.getAttribute("data-game");
    document.querySelectorAll("#lobby-seek-list .seeks__item").forEach(function (item) {
      item.hidden = Boolean(game) && item.getAttribute("data-kind") !== game;
    });
  }
  document.addEventListener("htmx:wsAfterMessage", filter);
  document.addEventListener("DOMContentLoaded", filter);
})();
