/* The hall display's live data (templates/public/hall/page.html, issue 36).
   The rotation (htmx "every Ns" on #hall-frame) changes screens; this polls the tournament's
   live stamp (/t/<slug>/live.json, cached: no query while nothing changes) every couple of
   seconds and, when it changes (a result reported or confirmed, a round published), swaps in
   the screen being shown with fresh data, so a result reaches the hall within seconds
   instead of when its screen comes round. */
(function () {
  "use strict";
  var body = document.body;
  if (!body || !body.dataset.live || !window.fetch) return;
  var seen = body.dataset.stamp;
  var every = Math.max(1, parseInt(body.dataset.interval, 10) || 2) * 1000;
  var busy = false;

  function refresh() {
    var frame = document.getElementById("hall-frame");
    if (!frame || !frame.dataset.self || !window.htmx) return null;
    return window.htmx.ajax("GET", frame.dataset.self, {target: frame, swap: "outerHTML"});
  }

  /* "no-cache" (not "no-store"): the browser revalidates with If-None-Match; an unchanged
     stamp is a 304 without a body. */
  function poll() {
    if (busy) return;
    busy = true;
    fetch(body.dataset.live, {cache: "no-cache", credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || data.stamp === seen) return null;
        seen = data.stamp;
        return refresh();
      })
      .catch(function () { /* the next poll tries again */ })
      .then(function () { busy = false; });
  }

  window.setInterval(poll, every);

  /* Pause (WCAG 2.2.2): someone reading the hall on their own device stops the rotation; the
     screen shown still takes fresh results. The rotation is the frame's own hx-get (the next
     screen); a refresh asks for the same screen, so only the rotation is held back. */
  var pause = document.getElementById("hall-pause");
  var paused = false;
  if (pause) {
    pause.addEventListener("click", function () {
      paused = !paused;
      pause.setAttribute("aria-pressed", paused ? "true" : "false");
      pause.textContent = paused ? pause.dataset.resume : pause.dataset.pause;
    });
    body.addEventListener("htmx:beforeRequest", function (e) {
      var frame = document.getElementById("hall-frame");
      if (!paused || !frame || !e.detail || !e.detail.pathInfo) return;
      if (e.detail.pathInfo.requestPath === frame.getAttribute("hx-get")) e.preventDefault();
    });
  }

  /* The round clock (Tournament.hall_round_minutes): the frame says when the round ends;
     this counts down to it each second ("Time left 12:34"), 0:00 once it has run out. */
  function tick() {
    var clock = document.querySelector(".hall-clock[data-ends]");
    if (!clock) return;
    var left = Math.max(0, Math.round((Date.parse(clock.dataset.ends) - Date.now()) / 1000));
    var out = clock.querySelector(".left");
    var mm = Math.floor(left / 60), ss = left % 60;
    if (out) out.textContent = "· " + clock.dataset.label + " " + mm + ":" + (ss < 10 ? "0" : "") + ss;
    clock.classList.toggle("over", left === 0);
  }
  tick();
  window.setInterval(tick, 1000);
})();
