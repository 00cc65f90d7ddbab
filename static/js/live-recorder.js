/* The live recorder: dice, taps on points, cube and resignation steps, sent in order with an
 * idempotency key and kept in localStorage until the server has them. The rules live on the
 * server (scoring.rules.records.live): this file only filters the legal plays the server sent. */
(function () {
  "use strict";
  var root = document.getElementById("live-recorder");
  if (!root) { return; }
  var stepUrl = root.dataset.stepUrl;
  var qkey = "zarik-live-" + root.dataset.match;
  var csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  var state = JSON.parse(document.getElementById("live-state").textContent);
  var queue = [];
  try { queue = JSON.parse(localStorage.getItem(qkey) || "[]"); } catch (e) { queue = []; }
  var dice = [];          // dice being entered
  var chosen = [];        // single steps of the play being entered: [from, to, hit]
  var from = null;        // a tapped source waiting for its destination
  var dests = {};         // destination -> steps that reach it
  var board = null;       // local copy of the counts while a play is entered
  var sending = false;
  var $ = function (id) { return document.getElementById(id); };

  function key() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return String(Date.now()) + "-" + Math.random().toString(16).slice(2);
  }
  function save() { localStorage.setItem(qkey, JSON.stringify(queue)); }
  function nextSeq() { return state.steps + queue.length + 1; }
  function say(text) { $("live-status").textContent = text; }
  function error(text) { $("live-error").textContent = text || ""; }

  function push(step) {
    queue.push({ seq: nextSeq(), key: key(), step: step });
    save();
    flush();
  }

  function flush() {
    if (sending || !queue.length) { render(); return; }
    sending = true;
    var item = queue[0];
    fetch(stepUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(item)
    }).then(function (r) {
      return r.json().then(function (data) { return { status: r.status, data: data }; });
    }).then(function (res) {
      sending = false;
      var data = res.data;
      if (data.ok) {
        queue.shift(); save();
        error(data.problems && data.problems.length ? data.problems.map(function (p) { return p.message; }).join(" ") : "");
      } else {
        // Refused (illegal, out of order, not allowed): nothing after it can stand either.
        queue = []; save();
        error((data.problems || []).map(function (p) { return p.message; }).join(" "));
      }
      if (data.state) { state = data.state; resetPlay(); }
      if (data.finished) { say(root.dataset.msgOver); }
      flush();
    }).catch(function () {
      sending = false;
      render();
      window.setTimeout(flush, 3000);   // the network is down: try again (and on "online")
    });
  }
  window.addEventListener("online", flush);

  function resetPlay() {
    chosen = []; from = null; dests = {};
    board = { white: state.board.white.slice(), black: state.board.black.slice() };
  }

  function idx(point) { return point === "bar" ? 25 : point === "off" ? 0 : parseInt(point, 10); }

  function moveLocal(step) {
    var me = state.on_roll, other = me === "white" ? "black" : "white";
    board[me][idx(step[0])] -= 1;
    board[me][idx(step[1])] += 1;
    if (step[2]) { board[other][idx(step[1])] -= 1; board[other][25] += 1; }
  }

  function sameStep(a, b) { return a[0] === b[0] && a[1] === b[1]; }
  function remaining(play) {
    var rest = play.steps.slice();
    for (var i = 0; i < chosen.length; i++) {
      var at = -1;
      for (var j = 0; j < rest.length; j++) { if (sameStep(rest[j], chosen[i])) { at = j; break; } }
      if (at < 0) { return null; }
      rest.splice(at, 1);
    }
    return rest;
  }
  function consistent() {
    return (state.plays || []).filter(function (p) { return remaining(p) !== null; });
  }
  function reach(src) {
    var out = {};
    consistent().forEach(function (play) {
      var rest = remaining(play);
      (function walk(at, left, path) {
        for (var i = 0; i < left.length; i++) {
          if (left[i][0] !== at) { continue; }
          var p2 = path.concat([left[i]]);
          if (!out[left[i][1]]) { out[left[i][1]] = p2; }
          walk(left[i][1], left.slice(0, i).concat(left.slice(i + 1)), p2);
        }
      })(src, rest, []);
    });
    return out;
  }
  function complete() {
    var c = consistent();
    return c.length >= 1 && c.some(function (p) { return remaining(p).length === 0; }) &&
      (c.length === 1 || chosen.length > 0 && c.every(function (p) { return remaining(p).length === 0; }));
  }
  function fillForced() {
    var c = consistent();
    if (c.length === 1) {
      remaining(c[0]).forEach(function (s) { chosen.push(s); moveLocal(s); });
    }
  }
  function chosenText() {
    var c = consistent().filter(function (p) { return remaining(p).length === 0; });
    return c.length ? c[0].text : "";
  }

  function tap(point) {
    if (state.phase !== "play" || queue.length) { return; }
    error("");
    if (from !== null && dests[point]) {
      dests[point].forEach(function (s) { chosen.push(s); moveLocal(s); });
      from = null; dests = {};
      fillForced();
    } else if (from === point) {
      from = null; dests = {};
    } else {
      var r = reach(point);
      var keys = Object.keys(r);
      if (!keys.length) { from = null; dests = {}; render(); return; }
      if (keys.length === 1) {
        r[keys[0]].forEach(function (s) { chosen.push(s); moveLocal(s); });
        from = null; dests = {};
        fillForced();
      } else { from = point; dests = r; }
    }
    render();
  }

  function side(name) { return name === "white" ? root.dataset.msgWhite : root.dataset.msgBlack; }

  function render() {
    if (!board) { resetPlay(); }
    var phase = state.phase, allowed = state.allowed || [];
    $("live-score").textContent = state.score[0] + " : " + state.score[1];
    $("live-cube").textContent = state.cube.value + (state.cube.offered ? " → " + state.cube.offered : "");
    $("live-opening").hidden = phase !== "opening";
    $("live-dice").hidden = allowed.indexOf("roll") < 0 && !queue.length;
    $("live-dice-shown").textContent = dice.length ? dice.join("–") : (state.dice ? state.dice.join("–") : "");
    var playing = phase === "play" && !queue.length;
    $("live-send").disabled = !(playing && complete());
    $("live-undo").disabled = !(playing && chosen.length);
    root.querySelectorAll("#live-cube-actions button").forEach(function (b) {
      b.hidden = allowed.indexOf(b.dataset.kind) < 0 || queue.length > 0;
    });
    root.querySelectorAll(".live-point").forEach(function (b) {
      var i = idx(b.dataset.point), w = board.white[i], k = board.black[i];
      var c = b.querySelector(".c");
      c.textContent = w ? "○" + w : k ? "●" + k : "";
      b.classList.toggle("is-white", w > 0);
      b.classList.toggle("is-black", k > 0);
      b.classList.toggle("is-from", from === b.dataset.point);
      b.classList.toggle("is-dest", !!dests[b.dataset.point]);
      b.setAttribute("aria-pressed", from === b.dataset.point ? "true" : "false");
    });
    $("live-chosen").textContent = playing ? (chosenText() || chosen.map(function (s) { return s[0] + "/" + s[1]; }).join(", ")) : "";
    var what = { opening: root.dataset.msgOpening, roll: root.dataset.msgRoll, play: root.dataset.msgPlay,
      answer: root.dataset.msgAnswer }[phase] || "";
    var status = phase === "over" ? root.dataset.msgOver :
      (state.on_roll ? side(state.on_roll) + ": " : "") + what + (state.dice ? " " + state.dice.join("–") : "");
    if (queue.length) { status = queue.length + " " + root.dataset.msgQueued; }
    say(status);
    root.dataset.seq = String(state.steps);
    root.dataset.phase = phase;
    root.dataset.queued = String(queue.length);
  }

  root.querySelectorAll(".live-die").forEach(function (b) {
    b.addEventListener("click", function () {
      dice.push(parseInt(b.dataset.die, 10));
      if (dice.length === 2) {
        var step = { kind: "roll", dice: dice };
        if (state.phase === "opening") {
          step.side = root.querySelector("input[name=first]:checked").value;
        }
        dice = [];
        push(step);
      }
      render();
    });
  });
  root.querySelectorAll(".live-point").forEach(function (b) {
    b.addEventListener("click", function () { tap(b.dataset.point); });
  });
  $("live-undo").addEventListener("click", function () {
    if (!chosen.length) { return; }
    chosen.pop();
    var keep = chosen; resetPlay(); keep.forEach(function (s) { chosen.push(s); moveLocal(s); });
    render();
  });
  $("live-send").addEventListener("click", function () {
    var text = chosenText();
    if (!text) { return; }
    push({ kind: "play", text: text });
  });
  root.querySelectorAll("#live-cube-actions button").forEach(function (b) {
    b.addEventListener("click", function () { push({ kind: b.dataset.kind }); });
  });
  $("live-resign").addEventListener("click", function () {
    push({ kind: "resign", side: $("live-resign-side").value, result: $("live-resign-kind").value });
  });
  $("live-text").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var input = $("live-notation"), text = input.value.trim();
    if (!text) { return; }
    var m = text.match(/^([1-6])\s*[-–—]\s*([1-6])\s*:?\s*(.*)$/);
    if (m && (state.phase === "roll" || state.phase === "opening")) {
      var roll = { kind: "roll", dice: [parseInt(m[1], 10), parseInt(m[2], 10)] };
      if (state.phase === "opening") { roll.side = root.querySelector("input[name=first]:checked").value; }
      push(roll);
      text = m[3] || "Ø";
    }
    push({ kind: "play", text: text });
    input.value = "";
  });

  resetPlay();
  // A play with one legal way (or a dance) is filled in as soon as the dice are known.
  var prevRender = render;
  render = function () {
    if (state.phase === "play" && !queue.length && !chosen.length && consistent().length === 1) { fillForced(); }
    prevRender();
  };
  flush();
})();
