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

  // Replays: <ol id="replay"> of <li data-step="N">. Without the script it is
  // a list with an anchor per step; with it, one step is current
  // (aria-current="step") and #replay-prev / #replay-next move it.
  function replay() {
    var list = document.getElementById("replay"), box = document.getElementById("replay-controls");
    if (!list || !box) return;
    var steps = list.querySelectorAll("li[data-step]");
    if (!steps.length) return;
    var cur = 0;
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
