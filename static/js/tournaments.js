// A tournament's countdown: ticks each second from the time the server rendered (the
// socket's pushes replace it, with the server's time, at every change).
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("data-countdown")) - now) / 1000));
      var hours = Math.floor(left / 3600), minutes = Math.floor(left / 60) % 60, seconds = left % 60;
      var two = function (n) { return (n < 10 ? "0" : "") + n; };
      el.textContent = hours ? hours + ":" + two(minutes) + ":" + two(seconds) : minutes + ":" + two(seconds);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { tick(); setInterval(tick, 1000); });
  document.addEventListener("htmx:oobAfterSwap", tick); // a push brings the server's time back
})();
