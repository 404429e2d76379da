/* Ticks a game page's clocks between the server's renderings.
 *
 * The server is the clock: every rendering of #clocks (the page, a push, an answer, a
 * poll) carries each seat's stored time (data-ms, as of data-since, epoch ms), which
 * seat is being charged (data-ticking) and, on a first turn, when the game is aborted
 * (data-deadline). Those do not change with the moment of rendering, so a cached push is
 * as good as a fresh one. The server's current time comes once, with the page
 * (data-server-now on #clocks): the difference from this browser's clock is kept, and
 * every 100 ms the charged seat shows stored - (server now - since). The page never
 * decides a flag: at zero it shows 0:00.0 and waits for the server's push.
 *
 * A seat's time going under data-low gets the class is-low and is said once to screen
 * readers in #clock-alert ("You have 10 seconds left."), in the page's language (gettext,
 * ngettext and interpolate come from the page's catalog, templates/_script_words.html).
 */
(function () {
  "use strict";
  var DAY = 86400000;
  var offset = 0; // the server's clock minus this browser's
  var said = {}; // seats whose low time was said

  function serverNow() {
    return Date.now() + offset;
  }

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  // As games.clocks.clock_text says it: "2:58", "0:09.4", "1:02:03", "5h 07m", "2d 3h".
  function clockText(ms) {
    ms = Math.max(0, ms);
    if (ms >= DAY) return Math.floor(ms / DAY) + "d " + Math.floor((ms % DAY) / 3600000) + "h";
    var s = Math.floor(ms / 1000);
    if (s >= 10800) return Math.floor(s / 3600) + "h " + pad(Math.floor((s % 3600) / 60)) + "m";
    if (s >= 3600) return Math.floor(s / 3600) + ":" + pad(Math.floor((s % 3600) / 60)) + ":" + pad(s % 60);
    if (ms < 10000) return "0:0" + (Math.floor(ms / 100) / 10).toFixed(1);
    return Math.floor(s / 60) + ":" + pad(s % 60);
  }

  // As clockface.left_text: "30 s" under a minute.
  function leftText(ms) {
    return ms < 60000 ? Math.ceil(Math.max(0, ms) / 1000) + " s" : clockText(ms);
  }

  // Words for a screen reader: "10 seconds", "2 minutes", "6 hours".
  function spoken(ms) {
    var s = Math.ceil(Math.max(0, ms) / 1000);
    if (s < 120) return interpolate(ngettext("%s second", "%s seconds", s), [s]);
    var minutes = Math.floor(s / 60);
    if (s < 7200) return interpolate(ngettext("%s minute", "%s minutes", minutes), [minutes]);
    var hours = Math.floor(s / 3600);
    return interpolate(ngettext("%s hour", "%s hours", hours), [hours]);
  }

  function setText(element, text) {
    if (element && element.textContent !== text) element.textContent = text;
  }

  function warn(face, left) {
    var seat = face.dataset.seat;
    if (said[seat]) return;
    said[seat] = true;
    var alert = document.getElementById("clock-alert");
    if (alert) alert.textContent = (face.dataset.sayLow || gettext("{} left.")).replace("{}", spoken(left));
    document.dispatchEvent(new CustomEvent("clock:low", { detail: { seat: seat } }));
  }

  function tick() {
    var section = document.querySelector("#clocks .clocks");
    if (!section) return;
    var now = serverNow();
    var since = Number(section.dataset.since);
    var low = Number(section.dataset.low);
    var faces = section.querySelectorAll(".clock[data-ms]");
    for (var i = 0; i < faces.length; i++) {
      var face = faces[i];
      var left = Number(face.dataset.ms);
      if (face.hasAttribute("data-ticking") && since) left -= Math.max(0, now - since);
      left = Math.max(0, left);
      setText(face.querySelector(".clock__time"), clockText(left));
      var isLow = left < low;
      face.classList.toggle("is-low", isLow);
      if (isLow && face.hasAttribute("data-ticking")) warn(face, left);
    }
    var first = section.querySelector("[data-deadline]");
    if (first) setText(first, leftText(Number(first.dataset.deadline) - now));
  }

  function start() {
    var holder = document.getElementById("clocks");
    var server = holder ? Number(holder.dataset.serverNow) : NaN;
    if (server) {
      // The server's moment is when it answered: when the response began to arrive here.
      var nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
      var arrived = nav && nav.responseStart ? performance.timeOrigin + nav.responseStart : Date.now();
      offset = server - arrived;
    }
    tick();
    window.setInterval(tick, 100);
    // A new rendering shows at once, not up to 100 ms later with the old count.
    document.addEventListener("htmx:afterSettle", tick);
    document.addEventListener("htmx:wsAfterMessage", tick);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
