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

  function poll() {
    if (busy) return;
    busy = true;
    fetch(body.dataset.live, {cache: "no-store", credentials: "same-origin"})
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
})();
