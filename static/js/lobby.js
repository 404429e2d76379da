// The lobby's live list: a pushed list holds every open seek; this page shows the game it
// filters by (the page without JavaScript is filtered by the server).
(function () {
  "use strict";
  // The pushed parts are rendered once for every page, so their forms carry no CSRF token:
  // each page adds its own (the page itself, rendered per request, holds it).
  function sign() {
    var token = document.getElementById("lobby-csrf");
    if (!token) return;
    document.querySelectorAll(".lobby form[method=post], .home__pairing form[method=post]").forEach(function (form) {
      if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token.value;
      form.appendChild(input);
    });
  }
  // Seeks made in this browser's other tabs since this page was rendered (lobby_wait.js).
  function storedMine() {
    try {
      return JSON.parse(localStorage.getItem("lobby-mine") || "[]");
    } catch (e) {
      return [];
    }
  }
  window.addEventListener("storage", function (event) {
    if (event.key === "lobby-mine") markMine();
  });

  // This visitor's own seeks (<main data-mine="ids">, and storedMine's) in a pushed list:
  // "yours" and Cancel, not Accept (the page's own rendering has them already), in the
  // page's language (templates/_script_words.html).
  function markMine() {
    var main = document.querySelector(".lobby[data-mine]");
    if (!main) return;
    var mine = main.getAttribute("data-mine").split(" ").filter(Boolean).concat(storedMine());
    document.querySelectorAll("#lobby-seek-list .seeks__item").forEach(function (item) {
      if (item.classList.contains("is-mine") || mine.indexOf(item.getAttribute("data-seek")) < 0) return;
      var form = item.querySelector("form[method=post]");
      var button = form && form.querySelector("button");
      if (!button) return;
      item.classList.add("is-mine");
      form.setAttribute("action", form.getAttribute("action").replace(/\/accept$/, "/cancel"));
      button.textContent = gettext("Cancel");
      button.classList.add("seeks__cancel");
      button.setAttribute("aria-label", gettext("Cancel your seek"));
      var yours = document.createElement("span");
      yours.className = "seeks__yours";
      yours.textContent = gettext("yours");
      var who = item.querySelector(".seeks__who");
      if (who) { who.appendChild(document.createTextNode(" ")); who.appendChild(yours); }
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
  document.addEventListener("htmx:wsAfterMessage", function () { markMine(); sign(); filter(); });
  // <body data-socket="open|closed">: the lobby's socket, as on a game page
  document.addEventListener("htmx:wsOpen", function () { document.body.dataset.socket = "open"; });
  document.addEventListener("htmx:wsClose", function () { document.body.dataset.socket = "closed"; });
  document.addEventListener("DOMContentLoaded", filter);

  // The create form shows the chosen game's options only (without JavaScript, every game's:
  // the server reads the chosen game's).
  function showOptions() {
    var chosen = document.querySelector(".seek-form select[name=game]");
    if (!chosen) return;
    document.querySelectorAll(".seek-form__options[data-kind]").forEach(function (set) {
      set.hidden = set.getAttribute("data-kind") !== chosen.value;
      set.disabled = set.hidden; // neither sent nor checked by the browser
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches(".seek-form select[name=game]")) showOptions();
  });
  document.addEventListener("DOMContentLoaded", showOptions);
})();
