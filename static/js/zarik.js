/* Zarik's small behaviours, wired by data attributes (the CSP allows no inline script).
   Each block finds its elements and does nothing on pages without them. */
(function () {
  "use strict";

  /* A box that scrolls (a wide table on a phone, the tie-break preview) takes the keyboard
     focus and is named after its caption or heading, so a keyboard can scroll it (WCAG 2.1.1);
     a box that fits gives the focus back, so a desktop has no extra tab stops. Checked again
     when the window changes size and when htmx swaps a part of the page. */
  var nameOf = function (box) {
    var caption = box.querySelector("caption");
    if (caption && caption.textContent.trim()) return caption.textContent.trim();
    var el = box;
    while (el) {
      var prev = el.previousElementSibling;
      while (prev) {
        if (/^H[1-4]$/.test(prev.tagName) || prev.tagName === "LEGEND") return prev.textContent.trim();
        var inner = prev.querySelector && prev.querySelector("h1, h2, h3, h4");
        if (inner) return inner.textContent.trim();
        prev = prev.previousElementSibling;
      }
      el = el.parentElement;
    }
    return document.title;
  };
  var focusScrollables = function () {
    document.querySelectorAll(".table-scroll, .preview, [data-scrolls]").forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.tabIndex = 0;
        box.dataset.madeFocusable = "1";
        if (!box.hasAttribute("role")) box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) box.setAttribute("aria-label", nameOf(box));
      } else if (!scrolls && box.dataset.madeFocusable) {
        box.removeAttribute("tabindex");
        delete box.dataset.madeFocusable;
      }
    });
  };
  focusScrollables();
  window.addEventListener("resize", focusScrollables);
  document.addEventListener("htmx:afterSettle", focusScrollables);

  /* [data-focus] (a form's error summary, a refusal): take the focus on load, so a phone
     shows it at once and a screen reader reads it; its links lead to each field. */
  var focusMe = document.querySelector("[data-focus]");
  if (focusMe) { focusMe.focus(); }

  /* <button data-print>: print the page. */
  document.querySelectorAll("[data-print]").forEach(function (b) {
    b.addEventListener("click", function () { window.print(); });
  });

  /* <button data-reload>: reload the page. */
  document.querySelectorAll("[data-reload]").forEach(function (b) {
    b.addEventListener("click", function () { location.reload(); });
  });

  /* <button data-copy="input-id" data-copied="Copied">: copy that field's value; the button
     says so for a moment (its text is what a screen reader announces on focus). */
  document.querySelectorAll("button[data-copy]").forEach(function (b) {
    var label = b.textContent;
    b.addEventListener("click", function () {
      var field = document.getElementById(b.dataset.copy);
      if (!field) { return; }
      var done = function () {
        b.textContent = b.dataset.copied || label;
        b.classList.add("copied");
        setTimeout(function () { b.textContent = label; b.classList.remove("copied"); }, 2000);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
      } else {  /* plain http on a hall's network: select it and copy the old way */
        field.focus(); field.select();
        try { if (document.execCommand("copy")) { done(); } } catch (e) { /* selected: Ctrl+C works */ }
      }
    });
  });

  /* <form data-confirm="question">: ask before submitting. */
  document.querySelectorAll("form[data-confirm]").forEach(function (f) {
    f.addEventListener("submit", function (e) {
      if (!window.confirm(f.dataset.confirm)) { e.preventDefault(); }
    });
  });

  /* Live refresh of public pages (scoring/_live_refresh.html): poll the stamp, reload when it
     changes, unless the user has typed into a form (then show the notice). "no-cache": the
     browser asks with If-None-Match and the server answers 304 while the stamp holds. */
  var live = document.getElementById("live-refresh");
  if (live && window.fetch) {
    var seen = live.dataset.stamp, dirty = false;
    var every = (window.zarikLiveInterval || Math.max(3, parseInt(live.dataset.interval, 10) || 15)) * 1000;
    document.addEventListener("input", function () { dirty = true; }, true);
    var pollLive = function () {
      if (document.hidden) return;
      fetch(live.dataset.url, {cache: "no-cache", credentials: "same-origin"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (!data || data.stamp === seen) return;
          if (dirty) { live.hidden = false; } else { location.reload(); }
        })
        .catch(function () {});
    };
    setInterval(pollLive, every);
    document.addEventListener("visibilitychange", pollLive);
  }

  /* The referee's tables: filter by table number or player as one types. */
  var q = document.querySelector("[data-filter-tables]");
  if (q) {
    var items = document.querySelectorAll("#tables li[data-search]");
    q.addEventListener("input", function () {
      var t = q.value.trim().toLowerCase();
      items.forEach(function (li) {
        var s = li.dataset.search, show = !t || (/^\d+$/.test(t) ? s.split(" ")[0] === t : s.indexOf(t) >= 0);
        li.hidden = !show;
      });
    });
  }

  /* The result form: "add a game" copies the template row and counts it in TOTAL_FORMS. */
  var add = document.getElementById("add-game");
  if (add) {
    var rows = document.getElementById("game-rows"), tpl = document.getElementById("game-template");
    var total = document.getElementById(add.dataset.totalId);
    if (rows && tpl && total) {
      add.addEventListener("click", function () {
        var n = parseInt(total.value, 10);
        var html = tpl.innerHTML.replace(/__prefix__/g, n).replace(/__n__/g, n + 1);
        rows.insertAdjacentHTML("beforeend", html);
        total.value = n + 1;
      });
    }
  }

  /* The Excel export's progress (public/export_progress.html). */
  var box = document.getElementById("export");
  if (box && box.dataset.poll === "1") {
    var bar = document.getElementById("export-bar"), state = document.getElementById("export-state");
    var dl = document.getElementById("export-download"), link = document.getElementById("export-link");
    var pollExport = function () {
      fetch(box.dataset.statusUrl, {headers: {"Accept": "application/json"}})
        .then(function (r) { return r.json(); })
        .then(function (s) {
          bar.value = s.percent;
          if (s.state === "SUCCESS") {
            state.textContent = box.dataset.textReady; link.href = s.download; dl.hidden = false; return;
          }
          if (s.state === "FAILURE" || s.state === "UNKNOWN") {
            state.textContent = s.error || box.dataset.textFailed; return;
          }
          state.textContent = s.state === "PROGRESS" ? box.dataset.textWriting + " " + s.percent + "%" : box.dataset.textWaiting;
          setTimeout(pollExport, 1000);
        })
        .catch(function () { setTimeout(pollExport, 3000); });
    };
    pollExport();
  }

  /* A background pairing's progress (organiser/task.html): go to the draft when it is ready. */
  var task = document.querySelector("[data-task-status]");
  if (task) {
    var taskBar = document.getElementById("bar");
    var pollTask = function () {
      fetch(task.dataset.statusUrl, {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (s) {
        if (s.url) { window.location = s.url; return; }
        if (s.problems) {
          var out = document.getElementById("problems"); out.textContent = "";
          s.problems.forEach(function (p) { var e = document.createElement("p"); e.className = "refused"; e.textContent = p; out.appendChild(e); });
          return;
        }
        if (s.total) { taskBar.max = s.total; taskBar.value = s.done; task.textContent = s.done + " / " + s.total; }
        setTimeout(pollTask, 1000);
      }).catch(function () { setTimeout(pollTask, 3000); });
    };
    setTimeout(pollTask, 500);
  }
})();
