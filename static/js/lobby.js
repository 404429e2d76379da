// The lobby's live list: a pushed list holds every open seek; this page shows the game it
// filters by (the page without JavaScript is filtered by the server).
(function () {
  "use strict";
  // The pushed parts are rendered once for every page, so their forms carry no CSRF token:
  // each page adds its own (the page itself, rendered per request, holds it).
  function sign() {
    var token = document.getElementById("lobby-csrf");
    if (!token) return;
    document.querySelectorAll(".lobby form[method=post]").forEach(function (form) {
      if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token.value;
      form.appendChild(input);
    });
  }
  function filter() {
    var main = document.querySelector(".lobby[data-game]");
    if (!main) return;
    var game = main.getAttribute("data-game");
    document.querySelectorAll("#lobby-seek-list .seeks__item").forEach(function (item) {
      item.hidden = Boolean(game) && item.getAttribute("data-kind") !== game;
    });
  }
  document.addEventListener("htmx:wsAfterMessage", function () { sign(); filter(); });
  // <body data-socket="open|closed">: the lobby's socket, as on a game page
  document.addEventListener("htmx:wsOpen", function () { document.body.dataset.socket = "open"; });
  document.addEventListener("htmx:wsClose", function () { document.body.dataset.socket = "closed"; });
  document.addEventListener("DOMContentLoaded", filter);
})();
