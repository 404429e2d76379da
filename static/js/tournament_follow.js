// A tournament game's page: once the player's next game in the tournament is made, go
// there by itself (the socket says {"go": url}). Without JavaScript, "Next game" leads to
// the page that waits for it.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var link = document.querySelector("[data-follow-socket]");
    if (!link) return;
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var tries = 0;
    function open() {
      var socket = new WebSocket(scheme + location.host + link.getAttribute("data-follow-socket"));
      socket.addEventListener("message", function (event) {
        var news = JSON.parse(event.data);
        if (news.go) location.assign(news.go);
      });
      socket.addEventListener("close", function () {
        tries += 1;
        if (tries < 30) setTimeout(open, 2000); // the server restarting: follow again
      });
    }
    open();
  });
})();
