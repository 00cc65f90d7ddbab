"""The hall display fits the screens halls have (issue 44): at 1280×720 and 1920×1080 a full screen
of 16 standings rows and one of 16 tables show with nothing outside the viewport and no
scrollbar, a shared place ("11–12", here "1–20") stays on one line, and the event's name reads
at a size proportional to the cells (it used to be ≈ 16 px beside 40–70 px cells).
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import swiss_event
from tournaments.models import Entry, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENS = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]
NAME = "Открытый чемпионат клуба «Длинные нарды» — весна 2026"
#: Every element drawn outside the viewport (the pause button included), whether the document
#: scrolls either way, the place cells that wrap, and the sizes of the name and of a cell.
MEASURE = """() => {
  const w = window.innerWidth, h = window.innerHeight;
  const outside = [...document.querySelectorAll("body *")].filter(el => {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return false;
    if (el.classList.contains("visually-hidden") || el.closest(".visually-hidden")) return false;
    return r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5;
  }).map(el => el.tagName + "." + el.className + " " + JSON.stringify(el.getBoundingClientRect()));
  const wrapped = [...document.querySelectorAll("#hall-frame td.place, #hall-frame td.score")].filter(td => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
  }).map(td => td.textContent.trim());
  const pause = document.getElementById("hall-pause").getBoundingClientRect();
  const covered = [...document.querySelectorAll("#hall-frame td, #hall-frame th, #hall-frame .hall-head > *")]
    .filter(el => { const r = el.getBoundingClientRect();
      return r.left < pause.right && r.right > pause.left && r.top < pause.bottom && r.bottom > pause.top; })
    .map(el => el.textContent.trim());
  const size = sel => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
  return {
    outside, wrapped, covered,
    scrolls: document.documentElement.scrollHeight > h || document.documentElement.scrollWidth > w,
    rows: document.querySelectorAll("#hall-frame tbody tr").length,
    name: size(".hall-head .t-name"), cell: size("#hall-frame tbody td"),
  };
}"""


@pytest.mark.parametrize("shows", ["standings", "pairings"])
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_full_hall_screen_fits_with_nothing_outside_and_no_wrapped_place(
    chromium, live_server, fresh_cache, screen, shows
):
    t = swiss_event(40, slug="hall-fits", rounds_done=1, open_round=True, name=NAME, hall_shows=shows,
                    hall_round_minutes=90)  # fmt: skip
    Round.objects.filter(tournament=t).update(published_at=timezone.now())  # the clock shows
    for entry in Entry.objects.filter(tournament=t, draw_number__in=(1, 3, 4, 7)):
        Player.objects.filter(pk=entry.player_id).update(last_name="Константинопольский-Щедрин", first_name="Александр")
    Entry.objects.filter(tournament=t, draw_number=5).update(status="withdrawn")  # "(withdrawn)" beside the name
    context = chromium.new_context(viewport=screen, locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    page = context.new_page()
    page.goto(f"{live_server.url}/t/hall-fits/hall/?every=600")
    seen = page.evaluate(MEASURE)
    page.screenshot(path=f"/tmp/a11y/hall-{shows}-{screen['width']}.png")
    context.close()
    assert seen["rows"] == 16
    assert not seen["scrolls"], seen
    assert seen["outside"] == [], seen["outside"]
    assert seen["wrapped"] == [], f"wrapped: {seen['wrapped']}"
    assert seen["covered"] == [], f"the pause button covers {seen['covered']}"
    # the name reads at the size of the cells: not less than ~70 % of them, and never tiny
    assert seen["name"] >= 0.7 * seen["cell"] and seen["name"] >= 0.03 * screen["height"], seen
