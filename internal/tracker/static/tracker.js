// Croupier tracker: progressive enhancements. Every page works without
// this script; it adds a live countdown to the next phase and next/previous
// buttons on match replays (docs/tracker.md lists the hooks).
(function () {
  "use strict";

  // Countdowns: <span data-countdown="RFC 3339 time">. The static text next
  // to it already says when; this adds "in 2 d 3 h 4 min 5 s".
  function remaining(ms) {
    if (ms <= 0) return "now (reload for the next phase)";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60), parts = [];
    s = s % 60;
    if (d) parts.push(d + " d");
    if (d || h) parts.push(h + " h");
    if (d || h || m) parts.push(m + " min");
    parts.push(s + " s");
    return parts.join(" ");
  }
  function tick() {
    var els = document.querySelectorAll("[data-countdown]");
    for (var i = 0; i < els.length; i++) {
      var at = Date.parse(els[i].getAttribute("data-countdown"));
      if (!isNaN(at)) els[i].textContent = remaining(at - Date.now());
    }
  }

  // The board of a replay: #replay-data holds the match after every step
  // (each card name once, hands as indexes); draw(i) shows step i's hands
  // and pile with their card images in #replay-board.
  function board() {
    var data = document.getElementById("replay-data"), box = document.getElementById("replay-board");
    if (!data || !box) return null;
    var b;
    try { b = JSON.parse(data.textContent); } catch (e) { return null; }
    if (!b || !b.states || !b.states.length) return null;
    var hands = document.getElementById("board-hands"), pile = document.getElementById("board-pile"),
        step = document.getElementById("board-step"), status = document.getElementById("board-status");
    function img(i, w, h) {
      var c = b.cards[i], el = document.createElement("img");
      el.src = c.url; el.alt = c.name; el.width = w; el.height = h;
      return el;
    }
    box.hidden = false;
    return function draw(i) {
      var st = b.states[i];
      step.textContent = String(i + 1);
      status.textContent = "Phase: " + st.phase + (st.turn ? "; " + (b.players[st.turn] || st.turn) + " to move" : "") +
        "; pool " + st.pool + (st.pool === 1 ? " Chip." : " Chips.");
      hands.textContent = "";
      st.hands.forEach(function (h) {
        var div = document.createElement("div"), head = document.createElement("h4"), ul = document.createElement("ul");
        div.className = "board-hand";
        div.setAttribute("data-participant", h.id);
        div.setAttribute("data-status", h.status);
        if (st.turn === h.id) div.setAttribute("data-turn", "true");
        head.textContent = (b.players[h.id] || h.id) + (h.status === "active" ? "" : " (" + h.status + ")");
        ul.className = "hand";
        if (h.hand === null) {
          div.setAttribute("data-hidden", "true");
          var li = document.createElement("li");
          li.textContent = "Hidden until the hands are revealed";
          ul.appendChild(li);
        } else {
          div.setAttribute("data-hand-size", String(h.hand.length));
          h.hand.forEach(function (c) {
            var li = document.createElement("li");
            li.setAttribute("data-card", b.cards[c].name);
            li.appendChild(img(c, 60, 84));
            ul.appendChild(li);
          });
          if (!h.hand.length) { var e = document.createElement("li"); e.textContent = "empty"; ul.appendChild(e); }
        }
        div.appendChild(head); div.appendChild(ul);
        hands.appendChild(div);
      });
      pile.textContent = "";
      pile.setAttribute("data-pile-size", String(st.pile));
      if (!st.pile) { pile.textContent = "Pile: empty."; return; }
      var top = b.pile[st.pile - 1], fig = document.createElement("figure"), cap = document.createElement("figcaption");
      fig.className = "top";
      fig.setAttribute("data-top", b.cards[top].name);
      fig.appendChild(img(top, 120, 168));
      cap.textContent = "Pile: " + st.pile + (st.pile === 1 ? " card" : " cards") + "; on top the " + b.cards[top].name + ".";
      fig.appendChild(cap);
      pile.appendChild(fig);
    };
  }

  // Replays: <ol id="replay"> of <li data-step="N">. Without the script it is
  // a list with an anchor per step; with it, one step is current
  // (aria-current="step"), #replay-prev / #replay-next move it, and the
  // board shows the match after it.
  function replay() {
    var list = document.getElementById("replay"), box = document.getElementById("replay-controls");
    if (!list || !box) return;
    var steps = list.querySelectorAll("li[data-step]");
    if (!steps.length) return;
    var cur = 0, draw = board();
    var m = /^#step-(\d+)$/.exec(location.hash);
    if (m) cur = Math.min(Math.max(parseInt(m[1], 10) - 1, 0), steps.length - 1);
    var prev = document.createElement("button"), next = document.createElement("button"),
        pos = document.createElement("span");
    prev.type = next.type = "button";
    prev.id = "replay-prev"; prev.textContent = "Previous move";
    next.id = "replay-next"; next.textContent = "Next move";
    pos.id = "replay-position"; pos.setAttribute("aria-live", "polite");
    box.appendChild(prev); box.appendChild(next); box.appendChild(pos);
    box.hidden = false;
    function show(i) {
      cur = i;
      for (var k = 0; k < steps.length; k++) {
        if (k === i) steps[k].setAttribute("aria-current", "step");
        else steps[k].removeAttribute("aria-current");
      }
      prev.disabled = i === 0;
      next.disabled = i === steps.length - 1;
      pos.textContent = "Step " + (i + 1) + " of " + steps.length;
      if (draw) draw(i);
      if (steps[i].scrollIntoView) steps[i].scrollIntoView({ block: "nearest" });
    }
    prev.addEventListener("click", function () { if (cur > 0) show(cur - 1); });
    next.addEventListener("click", function () { if (cur < steps.length - 1) show(cur + 1); });
    list.addEventListener("keydown", function (e) {
      if (e.key === "ArrowLeft" && cur > 0) show(cur - 1);
      if (e.key === "ArrowRight" && cur < steps.length - 1) show(cur + 1);
    });
    show(cur);
  }

  function start() {
    tick();
    if (document.querySelector("[data-countdown]")) setInterval(tick, 1000);
    replay();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
