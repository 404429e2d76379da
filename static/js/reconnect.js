// A server stopping for a release closes its sockets with 4012 (quarto_site/draining.py):
// every page with a live socket (htmx's ws extension, which would not retry that code)
// reconnects at once, through the proxy to another process; the jitter spreads a
// process's thousands of pages over half a second.
(function () {
  "use strict";
  var RESTART = 4012;
  document.addEventListener("htmx:wsClose", function (event) {
    var detail = event.detail;
    if (detail.event && detail.event.code === RESTART) setTimeout(detail.socketWrapper.reconnect, Math.random() * 500);
  });
})();
