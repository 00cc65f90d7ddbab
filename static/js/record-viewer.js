/* The record viewer's keys and swipes (no inline script: a strict CSP is coming).
   ← / → follow the "previous" / "next" controls (links swapped in by htmx, or the paste
   form's buttons); a horizontal swipe on the board does the same; a #ply-N address opens
   that position; "Copy" buttons copy a GNU ID. */
(function () {
  "use strict";
  function go(which) {
    var control = document.querySelector('#record-board [data-nav="' + which + '"]');
    if (control) { control.click(); return true; }
    return false;
  }
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && !target.readOnly) return;
    var map = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (map[event.key] && go(map[event.key])) event.preventDefault();
  });
  var startX = null, startY = null;
  document.addEventListener("touchstart", function (event) {
    if (!event.target.closest || !event.target.closest(".board-figure")) { startX = null; return; }
    startX = event.touches[0].clientX; startY = event.touches[0].clientY;
  }, { passive: true });
  document.addEventListener("touchend", function (event) {
    if (startX === null) return;
    var dx = event.changedTouches[0].clientX - startX, dy = event.changedTouches[0].clientY - startY;
    startX = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) go(dx < 0 ? "next" : "prev");
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    if (navigator.clipboard) { navigator.clipboard.writeText(field.value).catch(function () { document.execCommand("copy"); }); }
    else { document.execCommand("copy"); }
    button.setAttribute("data-copied", "1");
  });
  /* Focus stays on the control the user pressed: "next" is focused again after htmx swaps the
     board in (the old control is gone) or after the page reloads (the paste viewer's form, a
     move in the list); a move of the list gives the focus to the current move. */
  var KEY = "zarik-record-focus";
  function remember(control) {
    var which = control.getAttribute("data-nav") || (control.closest(".moves") ? "move" : "");
    if (which) { try { sessionStorage.setItem(KEY, which); } catch (e) { /* private mode */ } }
  }
  function restore() {
    var which = null;
    try { which = sessionStorage.getItem(KEY); sessionStorage.removeItem(KEY); } catch (e) { return; }
    if (!which) return;
    var target = which === "move"
      ? document.querySelector('.moves [aria-current="step"]')
      : document.querySelector('#record-board [data-nav="' + which + '"]') || document.querySelector("#record-board .frame-title");
    if (target) {
      if (!target.matches("a, button, input")) target.setAttribute("tabindex", "-1");
      target.focus();
    }
  }
  document.addEventListener("click", function (event) {
    var control = event.target.closest && event.target.closest("[data-nav], .moves a, .moves button");
    if (control) remember(control);
  }, true);
  /* The move list is swapped with the board (out of band): keep its current move in sight. */
  function showCurrentMove() {
    var current = document.querySelector('.moves [aria-current="step"]');
    var side = document.getElementById("record-side");
    if (!current || !side) return;
    var box = side.getBoundingClientRect(), at = current.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) side.scrollTop += at.top - box.top - box.height / 3;
  }
  /* The focus moves in the swap's own task (afterSwap), not after htmx's settle delay, so a
     key pressed at once still finds "Next" focused. */
  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("htmx:afterSettle", showCurrentMove);
  showCurrentMove();
  restore();
  var hash = /^#ply-(\d+)$/.exec(window.location.hash);
  if (hash && !/[?&]ply=/.test(window.location.search) && !document.getElementById("ply-" + hash[1])) {
    var board = document.getElementById("record-board");
    if (board && !document.getElementById("paste-form")) window.location.replace("?ply=" + hash[1] + "#ply-" + hash[1]);
  }
})();
