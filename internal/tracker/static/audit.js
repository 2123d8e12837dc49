// Croupier tracker: the randomness audit, recomputed in the browser.
//
// It implements docs/randomness.md (croupier-draw-v1) with WebCrypto, the
// same algorithm as internal/fair:
//
//   message = "croupier-draw-v1" 0x00 game 0x00 period 0x00 command 0x00
//             decimal(index) 0x00 purpose 0x00 decimal(n) 0x00 decimal(attempt)
//   h       = HMAC-SHA256(key = the 32 seed bytes, message)
//   x       = h[0:8] as a big-endian unsigned 64-bit integer
//   limit   = 2^64 - (2^64 mod n)
//   x < limit ? x mod n : try again with attempt + 1
//
// It reads the page's <script type="application/json" id="audit-data">
// ({game, seeds: {period: {commitment, seed?}}, draws: [{game, period,
// command, index, purpose, n, value, entry}]}, n and value as decimal
// strings), and on #audit-run checks each revealed seed against its
// commitment and each draw against its logged value, marking the rows
// (tr[data-draw-index]: data-status="match" | "mismatch" | "pending") and
// writing a summary into #audit-result ("all draws match" or "mismatch").
// Under Node (the Go tests run it) it exports the algorithm instead.
(function (root) {
  "use strict";
  var DOMAIN = "croupier-draw-v1";
  var TWO64 = BigInt(2) ** BigInt(64);

  function subtle() {
    var c = root.crypto;
    if (!c || !c.subtle) {
      throw new Error("this browser offers no WebCrypto here (the page must be served over HTTPS or from localhost)");
    }
    return c.subtle;
  }

  function hexToBytes(hex) {
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error("a seed is 64 hexadecimal characters");
    var out = new Uint8Array(32);
    for (var i = 0; i < 32; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }

  function toHex(buf) {
    var b = new Uint8Array(buf), s = "";
    for (var i = 0; i < b.length; i++) s += (b[i] < 16 ? "0" : "") + b[i].toString(16);
    return s;
  }

  // message builds the HMAC input: UTF-8 fields separated by 0x00 bytes.
  function message(game, period, command, index, purpose, n, attempt) {
    var enc = new TextEncoder();
    var fields = [DOMAIN, game, period, command, String(index), purpose, String(n), String(attempt)];
    var parts = fields.map(function (f) { return enc.encode(f); });
    var len = parts.length - 1;
    parts.forEach(function (p) { len += p.length; });
    var out = new Uint8Array(len), at = 0;
    parts.forEach(function (p, i) {
      if (i > 0) out[at++] = 0;
      out.set(p, at);
      at += p.length;
    });
    return out;
  }

  function importSeed(seedHex) {
    return subtle().importKey("raw", hexToBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }

  // drawWithKey returns {value, attempt} (BigInt value) for one draw.
  async function drawWithKey(key, game, period, command, index, purpose, n) {
    n = BigInt(n);
    if (n < BigInt(1)) throw new Error("n must be at least 1");
    var limit = TWO64 - (TWO64 % n);
    for (var attempt = 0; ; attempt++) {
      var mac = await subtle().sign("HMAC", key, message(game, period, command, index, purpose, n, attempt));
      var x = new DataView(mac).getBigUint64(0, false);
      if (x < limit) return { value: x % n, attempt: attempt };
    }
  }

  // draw is the whole derivation from a seed in hex: a Promise of a BigInt.
  async function draw(seedHex, game, period, command, index, purpose, n) {
    var key = await importSeed(seedHex);
    return (await drawWithKey(key, game, period, command, index, purpose, n)).value;
  }

  async function commitment(seedHex) {
    return toHex(await subtle().digest("SHA-256", hexToBytes(seedHex)));
  }

  // verify checks a page's payload. results[i] is {status, want, reason}
  // for draws[i]: status "match", "mismatch" or "pending".
  async function verify(data) {
    var keys = {}, seedProblem = {}, seen = {};
    var out = { checked: 0, pending: 0, mismatches: 0, results: [] };
    for (var i = 0; i < data.draws.length; i++) {
      var d = data.draws[i], s = data.seeds[d.period], r;
      var id = [d.game, d.period, d.command, d.index].join("\u0000");
      if (!s) {
        r = { status: "mismatch", reason: "no commitment published for period" };
      } else if (!s.seed) {
        r = { status: "pending", reason: "seed not revealed yet" };
      } else if (seen[id]) {
        r = { status: "mismatch", reason: "duplicate draw index" };
      } else {
        if (!(d.period in keys)) {
          try {
            var c = await commitment(s.seed);
            seedProblem[d.period] = c === String(s.commitment).trim().toLowerCase() ? "" : "seed does not match commitment";
            keys[d.period] = await importSeed(s.seed);
          } catch (e) {
            seedProblem[d.period] = "invalid seed: " + e.message;
            keys[d.period] = null;
          }
        }
        if (seedProblem[d.period]) {
          r = { status: "mismatch", reason: seedProblem[d.period] };
        } else {
          try {
            var want = (await drawWithKey(keys[d.period], d.game, d.period, d.command, d.index, d.purpose, d.n)).value;
            r = String(want) === String(d.value) ? { status: "match", want: String(want) }
              : { status: "mismatch", want: String(want), reason: "value differs" };
          } catch (e) {
            r = { status: "mismatch", reason: "invalid record: " + e.message };
          }
        }
      }
      seen[id] = true;
      if (r.status === "pending") out.pending++;
      else out.checked++;
      if (r.status === "mismatch") out.mismatches++;
      out.results.push(r);
    }
    return out;
  }

  function summary(v, total) {
    if (total === 0) return "No draws on this page.";
    if (v.mismatches > 0) {
      return "mismatch: " + v.mismatches + " of " + total + " draws do not check out (marked below).";
    }
    if (v.checked === 0) return "No draw can be checked yet: " + v.pending + " pending until their period's seed is revealed.";
    return "all draws match: " + v.checked + " recomputed" + (v.pending ? ", " + v.pending + " pending (seed not revealed yet)" : "") + ".";
  }

  function page() {
    var btn = document.getElementById("audit-run"), out = document.getElementById("audit-result"),
        src = document.getElementById("audit-data");
    if (!btn || !out || !src) return;
    var data;
    try {
      data = JSON.parse(src.textContent);
    } catch (e) {
      out.textContent = "The page's draw data could not be read: " + e.message;
      return;
    }
    try {
      subtle();
    } catch (e) {
      out.textContent = "Cannot recompute here: " + e.message + ".";
      return;
    }
    out.textContent = "Press the button to recompute " + data.draws.length + " draws.";
    btn.disabled = false;
    btn.addEventListener("click", async function () {
      btn.disabled = true;
      out.textContent = "Recomputing " + data.draws.length + " draws…";
      try {
        var v = await verify(data);
        v.results.forEach(function (r, i) {
          var row = document.querySelector('tr[data-draw-index="' + i + '"]');
          if (!row) return;
          row.setAttribute("data-status", r.status);
          var cell = row.querySelector("td.check");
          if (!cell) return;
          cell.setAttribute("data-status", r.status);
          cell.textContent = r.status === "match" ? "matches"
            : r.status === "pending" ? "pending"
            : "mismatch: " + r.reason + (r.want !== undefined ? " (recomputed " + r.want + ")" : "");
        });
        out.textContent = summary(v, data.draws.length);
      } catch (e) {
        out.textContent = "The recomputation failed: " + e.message;
      }
      btn.disabled = false;
    });
  }

  var api = { message: message, draw: draw, commitment: commitment, verify: verify, summary: summary };
  if (typeof module !== "undefined" && module.exports) {
    module.exports = api;
  } else if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", page);
    else page();
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
