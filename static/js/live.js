/* Keeps a game page current while its WebSocket is down, and follows a rematch.
 *
 * The element #live-poll asks for the current partials every few seconds (hx-get,
 * hx-trigger="every 3s"); those polls are cancelled while pushes reach the page: its
 * socket is open and the server has not said that live updates are paused (it shows
 * #live-status when its channel layer is down, and hides it again once it is back).
 * While the socket is closed #live-status says "Reconnecting…" (its data-offline text);
 * the ws extension reconnects by itself and the server's first message on the new
 * socket is the current position: the page resynchronises without a reload.
 *
 * Clicks are plain HTTP posts carrying the ply they were made for: with the socket down
 * they still reach the server, and a repeat is refused as stale. A click that cannot be
 * sent at all (the network is gone) is not queued: the notice says it was not sent.
 *
 * A player whose page is pushed the "Go to the rematch" link (data-follow) goes there.
 */
(function () {
  "use strict";
  var socketOpen = false;
  var pausedText = null;
  var followAtLoad = document.querySelector("a[data-follow]") !== null;
  // While this page's own rematch request is on its way: if it accepted the rematch, its
  // answer's redirect takes it there, and following the pushed link too would navigate twice.
  var leaving = false;

  function followRematch() {
    var link = document.querySelector("a[data-follow]");
    if (link && !followAtLoad && !leaving) window.location.assign(link.href);
  }

  function isRematch(event) {
    var config = event.detail && event.detail.requestConfig;
    return Boolean(config && /\/rematch$/.test(config.path || ""));
  }

  function notice() {
    return document.getElementById("live-status");
  }

  function say(text) {
    var element = notice();
    if (!element) return;
    if (pausedText === null) pausedText = element.textContent;
    element.textContent = text === null ? pausedText : text;
    element.hidden = text === null;
  }

  document.addEventListener("htmx:wsOpen", function () {
    socketOpen = true;
    say(null);
  });
  document.addEventListener("htmx:wsClose", function () {
    socketOpen = false;
    var element = notice();
    say(element ? element.dataset.offline || element.textContent : null);
  });
  document.addEventListener("htmx:sendError", function () {
    say("Your last click was not sent: the connection is down. Click again once it is back.");
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isRematch(event)) leaving = true;
    if (!event.target || event.target.id !== "live-poll") return;
    var element = notice();
    if (socketOpen && (!element || element.hidden)) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isRematch(event)) return;
    var xhr = event.detail.xhr;
    if (xhr && xhr.getResponseHeader("HX-Redirect")) return; // accepted: the redirect takes us
    leaving = false; // offered or refused: follow the link once the rematch exists
    followRematch();
  });
  document.addEventListener("htmx:wsAfterMessage", followRematch);
  // The status line's forms answer with out-of-band parts (hx-target="#status" so the
  // event reaches here). A push may have replaced the form before its answer came: htmx
  // would look for the parts inside the detached form; put them into the page instead.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var form = detail.requestConfig && detail.requestConfig.elt;
    if (!form || form.isConnected || !detail.shouldSwap) return;
    detail.shouldSwap = false;
    htmx.swap(detail.target, detail.serverResponse, { swapStyle: "none" }, { contextElement: detail.target });
  });
  // Reconnect after 2 to 5 s rather than at once: the server may be restarting.
  htmx.config.wsReconnectDelay = function (retries) {
    return 2000 + Math.random() * Math.min(3000, 1000 * (retries + 1));
  };
})();
