/* Keeps a game page current while its WebSocket is down.
 *
 * The element #live-poll asks for the current partials every few seconds (hx-get,
 * hx-trigger="every 3s"); while the socket is open those polls are cancelled, so a
 * page polls only when pushes cannot reach it. #live-status says when that is. The
 * ws extension reconnects by itself; pushes resume without a reload.
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
    if (socketOpen && event.target && event.target.id === "live-poll") event.preventDefault();
  });
  // Retry every 2 to 5 s: the server closes with 1013 while its channel layer is down.
  htmx.config.wsReconnectDelay = function (retries) {
    return 2000 + Math.random() * Math.min(3000, 1000 * (retries + 1));
  };
})();
