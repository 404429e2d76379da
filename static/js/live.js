/* Keeps a game page current while its WebSocket is down.
 *
 * The element #live-poll asks for the current partials every few seconds (hx-get,
 * hx-trigger="every 3s"); those polls are cancelled while pushes reach the page: its
 * socket is open and the server has not said that live updates are paused (it shows
 * #live-status when its channel layer is down, and hides it again once it is back).
 * The ws extension reconnects a closed socket by itself; pushes resume without a reload.
 */
(function () {
  "use strict";
  var socketOpen = false;

  function showPaused(paused) {
    var notice = document.getElementById("live-status");
    if (notice) notice.hidden = !paused;
  }

  document.addEventListener("htmx:wsOpen", function () {
    socketOpen = true;
    showPaused(false);
  });
  document.addEventListener("htmx:wsClose", function () {
    socketOpen = false;
    showPaused(true);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!event.target || event.target.id !== "live-poll") return;
    var notice = document.getElementById("live-status");
    if (socketOpen && (!notice || notice.hidden)) event.preventDefault();
  });
  // Reconnect after 2 to 5 s rather than at once: the server may be restarting.
  htmx.config.wsReconnectDelay = function (retries) {
    return 2000 + Math.random() * Math.min(3000, 1000 * (retries + 1));
  };
})();
