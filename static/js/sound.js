/* Sounds on the game page: a move, a line that wins, the end, the start, low time on one's
 * own clock, a chat line.
 *
 * On when the account's preference says so (<main> carries "sound-on"), or, for a visitor
 * without an account, when the page's sound button was pressed (kept in this browser's
 * storage). The page compares what each swap shows with what it showed before (the ply, the
 * end, the chat's lines, the invite), so pushes, answers and polls all sound alike. A browser
 * that refuses to play before the person has touched the page (its autoplay rule) stays
 * silent: play() is tried, its refusal ignored.
 */
(function () {
  "use strict";
  var KEY = "sound"; // this browser's choice, in its storage for this site
  var main = document.querySelector("main.game");
  if (!main) return;
  var button = document.getElementById("sound-toggle");
  var byAccount = main.hasAttribute("data-sound-account");

  function stored() {
    try {
      return window.localStorage.getItem(KEY) === "on";
    } catch (error) {
      return false; // storage refused (private mode): no sound
    }
  }

  function on() {
    return byAccount ? main.classList.contains("sound-on") : stored();
  }

  var cache = {};
  function play(name) {
    // Each sound's address (hashed once collected) is on <main>: data-sound-move, ...
    var url = main.dataset["sound" + name.charAt(0).toUpperCase() + name.slice(1)];
    if (!on() || !url) return;
    var audio = cache[name] || (cache[name] = new Audio(url));
    audio.currentTime = 0;
    var played = audio.play();
    if (played && played.catch) played.catch(function () {});
  }

  function seen() {
    var line = document.querySelector(".status__line");
    return {
      ply: line ? Number(line.dataset.ply) : -1,
      over: Boolean(line && line.classList.contains("is-over")),
      won: document.querySelector("#board .is-winning, .board .is-winning") !== null,
      chat: document.querySelectorAll(".chat__lines .chat__line").length,
      invite: document.getElementById("invite-url") !== null,
    };
  }

  var last = seen();
  function compare() {
    var now = seen();
    if (now.over && !last.over) play(now.won ? "win" : "end");
    else if (now.ply > last.ply) play("move");
    else if (last.invite && !now.invite && !now.over) play("start");
    if (now.chat > last.chat) play("chat");
    last = now;
  }

  document.addEventListener("htmx:afterSettle", compare);
  document.addEventListener("htmx:wsAfterMessage", compare);
  document.addEventListener("clock:low", function () {
    if (document.querySelector(".status__line.is-my-turn")) play("low");
  });

  function showButton() {
    if (!button) return;
    var state = stored();
    button.hidden = false;
    button.setAttribute("aria-pressed", state ? "true" : "false");
    button.textContent = state ? button.dataset.on : button.dataset.off;
  }
  if (button && !byAccount) {
    showButton();
    button.addEventListener("click", function () {
      try {
        window.localStorage.setItem(KEY, stored() ? "off" : "on");
      } catch (error) {
        return;
      }
      showButton();
      if (stored()) play("move"); // the press itself lets the browser play
    });
  }
})();
