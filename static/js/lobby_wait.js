// The waiting page: its socket holds the seek (or the place in the pool) while the page is
// open and says where to go once there is a game. Without JavaScript the page refreshes
// itself instead; if the socket closes, the page reloads (and opens a new one).
(function () {
  "use strict";
  // This seek is this browser's: its other lobby tabs mark it "yours" (static/js/lobby.js).
  var seek = new URLSearchParams(location.search).get("seek");
  if (seek) {
    try {
      var mine = JSON.parse(localStorage.getItem("lobby-mine") || "[]").filter(function (id) { return id !== seek; });
      localStorage.setItem("lobby-mine", JSON.stringify(mine.concat([seek]).slice(-20)));
    } catch (e) { /* no storage: only the pages rendered after this know it */ }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var main = document.querySelector("[data-socket-path]");
    if (!main) return;
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + main.getAttribute("data-socket-path"));
    var leaving = false;
    socket.addEventListener("open", function () { document.body.dataset.socket = "open"; });
    socket.addEventListener("message", function (event) {
      var news = JSON.parse(event.data);
      if (news.go) { leaving = true; location.assign(news.go); }
    });
    socket.addEventListener("close", function (event) {
      document.body.dataset.socket = "closed";
      // 4012: the server stops for a release; the reloaded page's socket goes to another.
      var wait = event.code === 4012 ? 0 : 1000 * Number(main.getAttribute("data-refresh") || 2);
      if (!leaving) setTimeout(function () { location.reload(); }, wait);
    });
    window.addEventListener("pagehide", function () { leaving = true; });
  });
})();
