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
 * Moves go on the socket, as lichess does: while the socket is open and live updates are
 * not paused (#live-status hidden), a click on the move form (a cell, a piece; the mouse or
 * the keyboard) is not posted but sent as a frame {"move", "ply", "revision"}; the server
 * plays it through the same service and guard as a post, and its answer is the push every
 * page of the game gets (a refusal comes to this page alone, the status line with the
 * sentence). Otherwise (no socket yet, closed, paused; or no JavaScript at all) the form
 * is posted as before. A second click while one is on its way is dropped, either way (for
 * posts, the form's hx-sync drop on the position's ply input). A frame with no answer (a newer
 * position, or a refusal) within ANSWER_WAIT, or whose socket closes first, is resent as
 * a form post with the same ply and revision, marked "resent": if the socket did play it
 * the server answers with the position, not "stale", so a move is never lost nor applied
 * twice, and the player never reads that the game moved on because of their own move.
 *
 * Posts carry the ply they were made for: with the socket down they still reach the
 * server, and a repeat is refused as stale. A click that gets no answer (the network is
 * gone: it may or may not have reached the server) is not queued: the notice says so
 * until a request gets through or the socket opens again, and the page then shows the
 * current position, that click in it or not.
 *
 * Answers, pushes and polls can cross: a move's answer may arrive after the push of the
 * computer's reply to it. Each rendering of the position carries the game's revision
 * (data-revision on the status line, counted by the server on every change), and the page
 * never swaps in one older than what it shows.
 *
 * A page (a player's or a spectator's) pushed the "Go to the rematch" link (data-follow), or
 * handed it by the poll while its socket is down, goes there; one that shows it from the
 * start (opened later) stays.
 */
(function () {
  "use strict";
  var pausedText = null;
  // The browser cannot tell a click that never left from one whose answer was lost.
  // In the page's language (templates/_script_words.html).
  var LOST = gettext(
    "Your last click got no answer: the connection is down. Once it is back this page " +
      "shows the current position; if your move is not in it, click again."
  );
  var beforeLost = null; // while the notice says LOST: what it said before
  var followAtLoad = document.querySelector("a[data-follow]") !== null;
  // While this page's own rematch request is on its way: if it accepted the rematch, its
  // answer's redirect takes it there, and following the pushed link too would navigate twice.
  var leaving = false;

  var followed = false;

  function followRematch() {
    var link = document.querySelector("a[data-follow]");
    if (!link || followAtLoad || leaving || followed) return;
    followed = true;
    window.location.assign(link.href);
  }

  function isRematch(event) {
    var config = event.detail && event.detail.requestConfig;
    return Boolean(config && /\/rematch$/.test(config.path || ""));
  }

  var REVISION = /class="status__line[^"]*"[^>]*data-revision="(\d+)"/;

  function shownRevision() {
    var line = document.querySelector(".status__line[data-revision]");
    return line ? Number(line.dataset.revision) : -1;
  }

  // True when `html` renders the position older than the one on the page.
  function isStale(html) {
    var found = typeof html === "string" ? REVISION.exec(html) : null;
    return found !== null && Number(found[1]) < shownRevision();
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

  function offlineText() {
    var element = notice();
    return element ? element.dataset.offline || element.textContent : null;
  }

  // -- Moves on the socket (see above) --
  var ANSWER_WAIT = 4000; // ms a move sent on the socket waits for its answer
  var socket = null; // the ws extension's socket (its public interface) while it is open
  var sent = null; // the click on its way on the socket: {move, ply, revision, seen, timer}

  function moveForm() {
    return document.querySelector("form.game__layout");
  }

  function socketLive() {
    var element = notice();
    return socket !== null && document.body.dataset.socket === "open" && (!element || element.hidden);
  }

  // True when `html` answers the click on the socket: a newer position, or a refusal.
  function answers(html) {
    var found = sent !== null && typeof html === "string" ? REVISION.exec(html) : null;
    return found !== null && (Number(found[1]) > sent.seen || html.indexOf('class="status__error"') >= 0);
  }

  function answered() {
    if (sent === null) return;
    clearTimeout(sent.timer);
    sent = null;
  }

  // No answer on the socket: the same click as a form post (the server's ply guard makes
  // it one move; "resent" tells it that a stale answer about this very move is not news).
  function resend() {
    var click = sent;
    var form = moveForm();
    answered();
    if (!click || !form) return;
    var values = { move: click.move, ply: click.ply, resent: "1" };
    if (click.revision !== null) values.revision = click.revision;
    // A request that cannot be sent rejects the promise: htmx:sendError has said so already.
    htmx.ajax("POST", form.getAttribute("hx-post"), { source: form, swap: "none", values: values }).catch(
      function () {}
    );
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.target;
    if (!form || !form.matches || !form.matches("form.game__layout")) return;
    var data = event.detail.formData;
    if (data.get("resent") || data.get("move") === null) return; // a resend goes as a post
    if (sent !== null) {
      // A click is on its way on the socket: until its answer (any newer position comes
      // with it or after it, on the same socket) or its resend, this is a repeat.
      event.preventDefault();
      return;
    }
    if (!socketLive()) return; // the form post
    event.preventDefault();
    var revision = data.get("revision");
    var click = {
      move: data.get("move"),
      ply: Number(data.get("ply")),
      revision: revision ? Number(revision) : null,
      seen: shownRevision(),
    };
    click.timer = setTimeout(resend, ANSWER_WAIT);
    sent = click;
    try {
      socket.sendImmediately(JSON.stringify({ move: click.move, ply: click.ply, revision: click.revision }));
    } catch (error) {
      resend(); // the socket is not open after all
    }
  });

  // <body data-socket="open|closed">: the socket's state, for styles and the browser tests
  // (an open socket has joined its game: the server accepts it only then).
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    document.body.dataset.socket = "open";
    beforeLost = null;
    say(null);
  });
  document.addEventListener("htmx:wsClose", function () {
    socket = null;
    document.body.dataset.socket = "closed";
    // A lost click stays said (the socket often notices the outage after the click did);
    // once a request gets through the notice says "Reconnecting…".
    if (beforeLost !== null) beforeLost = { text: offlineText(), hidden: false };
    else say(offlineText());
    if (sent !== null) resend(); // played or not, its answer will not come on this socket
  });
  document.addEventListener("htmx:sendError", function (event) {
    // A poll that fails is what "Reconnecting…" already says: only a click is reported.
    if (event.target && event.target.id === "live-poll") return;
    var element = notice();
    if (element && beforeLost === null) beforeLost = { text: element.textContent, hidden: element.hidden };
    say(LOST);
  });
  // A request that got through after a lost click (the socket may have stayed open all
  // along): the connection is back, the notice says again what it said before.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (beforeLost === null || !event.detail.successful) return;
    var element = notice();
    if (element && element.textContent === LOST) {
      element.textContent = beforeLost.text;
      element.hidden = beforeLost.hidden;
    }
    beforeLost = null;
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isRematch(event)) leaving = true;
    if (!event.target || event.target.id !== "live-poll") return;
    var element = notice();
    var socketOpen = document.body.dataset.socket === "open";
    if (socketOpen && (!element || element.hidden)) event.preventDefault();
  });
  // The answer to this page's own rematch request, when it is not a redirect (an offer, or
  // a refusal): the page may follow now. Said at beforeSwap, which htmx fires on the target
  // (#status, always in the page): a push often replaces the form before its answer comes,
  // and the form's own events (afterRequest) then reach no listener here.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!isRematch(event)) return;
    leaving = false;
    followRematch();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isRematch(event)) return;
    var xhr = event.detail.xhr;
    if (xhr && xhr.getResponseHeader("HX-Redirect")) return; // accepted: the redirect takes us
    leaving = false; // offered or refused: follow the link once the rematch exists
    followRematch();
  });
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (isStale(event.detail.message)) event.preventDefault();
    else if (answers(event.detail.message)) answered();
  });
  // The link comes by a push, or by the poll while the socket is down (its parts are
  // swapped out of band): either way the page follows it.
  document.addEventListener("htmx:wsAfterMessage", followRematch);
  document.addEventListener("htmx:oobAfterSwap", followRematch);
  document.addEventListener("htmx:afterSettle", followRematch);
  // An answer older than the page is dropped (see above). The status line's forms answer
  // with out-of-band parts (hx-target="#status" so the event reaches here). A push may
  // have replaced the form before its answer came: htmx would look for the parts inside
  // the detached form; put them into the page instead.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (detail.shouldSwap && isStale(detail.serverResponse)) {
      detail.shouldSwap = false;
      return;
    }
    if (detail.shouldSwap && answers(detail.serverResponse)) answered(); // a poll brought it
    var form = detail.requestConfig && detail.requestConfig.elt;
    if (!form || form.isConnected || !detail.shouldSwap) return;
    detail.shouldSwap = false;
    htmx.swap(detail.target, detail.serverResponse, { swapStyle: "none" }, { contextElement: detail.target });
  });
  // A push (or a poll) draws the actions under the board again: a question the player
  // has open ("Really resign?") stays open, or their next click would meet it closed.
  // Done on the new part before it is swapped in, so nothing waits for an event.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.fragment || !detail.target) return;
    detail.target.querySelectorAll("details[open][class]").forEach(function (old) {
      var same = detail.fragment.querySelector("details." + old.classList[0]);
      if (same) same.open = true;
    });
  });
  // Otherwise reconnect after 2 to 5 s rather than at once: the server may be restarting.
  htmx.config.wsReconnectDelay = function (retries) {
    return 2000 + Math.random() * Math.min(3000, 1000 * (retries + 1));
  };
})();
