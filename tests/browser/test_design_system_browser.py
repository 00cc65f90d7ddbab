"""The design system and the hall's paper cuts (issue 44), measured as the issue measured them.

Debian's chromium through Playwright against the live server and the demo: the palette's colour
pairs pass WCAG AA, the wizard's step 2 fits 2,000 px on a phone and hides the fields that do not
apply, the results grid keeps a refused row's error on the phone's screen, the public standings
put the main score right after the name, pairings keep each name on one line, and the header's
"Log out (referee)" stays on one line.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.test_accessibility_browser import _login
from tests.browser.test_accessibility_browser import site as site  # noqa: F401 (the fixture)
from tournaments.models import Match, Round, Tournament
from zarik.management.demo import SWISS_SLUG

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 320, "height": 640}
#: Text colour on background colour, both as the stylesheet's tokens: each pair is used for text.
PAIRS = [
    ("--fg", "--bg"), ("--muted", "--bg"), ("--muted", "--surface"), ("--on-primary", "--primary"),
    ("--on-primary", "--primary-strong"), ("--on-secondary", "--secondary"), ("--secondary-strong", "--bg"),
    ("--secondary-strong", "--secondary-soft"), ("--primary", "--primary-soft"), ("--success", "--success-soft"),
    ("--warning", "--warning-soft"), ("--danger", "--danger-soft"), ("--info", "--info-soft"), ("--danger", "--bg"),
]  # fmt: skip
TOKENS = "names => names.map(n => getComputedStyle(document.documentElement).getPropertyValue(n).trim())"
#: Issue 44's limit for the wizard's tallest step on a phone (7,613 px before).
WIZARD_MAX = 2000


def _context(chromium, viewport=PHONE, lang="en"):
    return chromium.new_context(
        viewport=viewport, is_mobile=True, has_touch=True,
        locale="ru-RU" if lang == "ru" else "en-GB", extra_http_headers={"Accept-Language": lang},
    )  # fmt: skip


def _luminance(hex_colour: str) -> float:
    """WCAG 2.x relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: str, bg: str) -> float:
    light, dark = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_formula_matches_wcag_reference_values():
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48  # the classic "grey just fails AA"


def test_every_palette_pair_passes_aa_contrast(chromium, site):  # noqa: F811
    context = _context(chromium)
    page = context.new_page()
    page.goto(site + "/")
    names = sorted({n for pair in PAIRS for n in pair})
    values = dict(zip(names, page.evaluate(TOKENS, names), strict=True))
    assert all(re.fullmatch(r"#[0-9a-f]{6}", v) for v in values.values()), values
    ratios = {f"{fg} on {bg}": round(contrast(values[fg], values[bg]), 2) for fg, bg in PAIRS}
    print("palette contrast:", ratios)
    assert all(r >= 4.5 for r in ratios.values()), {k: r for k, r in ratios.items() if r < 4.5}
    context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_wizards_step_2_is_short_on_a_phone_and_hides_what_does_not_apply(chromium, site, lang):  # noqa: F811
    context = _context(chromium, lang=lang)
    page = _login(context, site, "organiser")
    page.goto(f"{site}/organise/new/?preset=club_swiss&club=zarik-club")
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"wizard step 2 at 390 px ({lang}):", height)
    assert height <= WIZARD_MAX, f"step 2 is {height} px tall on a phone"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # A match to N points: neither a number of games nor a drawn game's value.
    page.click("#group-match > summary")
    assert page.input_value("#id_match_format") == "points"
    assert page.is_visible("#id_match_length")
    assert not page.is_visible("#id_fixed_games") and not page.is_visible("#id_draw_value")
    page.select_option("#id_match_format", "games")
    assert page.is_visible("#id_fixed_games") and page.is_visible("#id_draw_value")
    assert not page.is_visible("#id_match_length")
    # The advanced groups are closed and open on a tap; the event's name is on the first screen.
    assert not page.is_visible("#id_move_seconds")
    page.click("#group-time > summary")
    assert page.is_visible("#id_move_seconds")
    box = page.locator("#id_name").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    context.close()


def test_a_refused_rows_error_is_on_the_phones_screen_beside_its_row(chromium, site):  # noqa: F811
    tournament = Tournament.objects.get(slug=SWISS_SLUG)
    rnd = Round.objects.filter(tournament=tournament, status="published").order_by("-number").first()
    match = Match.objects.filter(round=rnd, entry_b__isnull=False).order_by("table").last()
    context = _context(chromium, lang="ru")
    page = _login(context, site, "referee")
    page.goto(f"{site}/t/{SWISS_SLUG}/manage/round/{rnd.pk}/results/")
    page.fill(f"#m{match.pk}-a", "3")
    page.fill(f"#m{match.pk}-b", "3")  # a draw in a match to N points: refused
    with page.expect_navigation():
        page.click("#results-grid button[type=submit]")
    row = page.locator(f"#row-{match.table}")
    assert "refused" in (row.get_attribute("class") or "")
    error = page.locator(f"#m{match.pk}-errors")
    error.scroll_into_view_if_needed()
    box, row_box = error.bounding_box(), row.bounding_box()
    assert box is not None and row_box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box  # not off to the side
    assert row_box["y"] <= box["y"] <= row_box["y"] + row_box["height"]  # inside its own row
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert error.get_attribute("role") == "alert" and page.locator("ul[role=alert]").count() == 0
    assert page.input_value(f"#m{match.pk}-a") == "3"  # nothing typed is lost
    context.close()


def test_public_standings_put_the_score_after_the_name_and_pairings_fit_breaking_names_only_between_words(chromium, site):  # noqa: F811
    context = _context(chromium, SMALL)
    page = context.new_page()
    page.goto(f"{site}/t/{SWISS_SLUG}/standings/")
    headers = page.locator("table.standings thead th")
    visible = [h for h in headers.all() if h.is_visible()]
    texts = [h.inner_text().strip() for h in visible]
    player = texts.index("Player")
    assert "main-score" in (visible[player + 1].get_attribute("class") or "")
    score_box = visible[player + 1].bounding_box()
    assert score_box is not None and score_box["x"] + score_box["width"] <= SMALL["width"], score_box
    page.goto(f"{site}/t/{SWISS_SLUG}/pairings/")
    # Both players and the score on the screen: a name wraps between its words (surname, then
    # first name), never inside one, and the table needs no sideways scroll.
    names = page.evaluate(
        """[...document.querySelectorAll('table.pairings td > a:first-child')].map(a => {
             const range = document.createRange(); range.selectNodeContents(a);
             const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
             return [a.innerText.trim().split(/\\s+/).length, lines];
           })"""
    )
    assert names and all(lines <= words for words, lines in names), names
    table = page.locator("table.pairings").first.bounding_box()
    assert table is not None and table["x"] + table["width"] <= SMALL["width"], table
    context.close()


@pytest.mark.parametrize("viewport", [SMALL, PHONE], ids=["320", "390"])
def test_the_header_keeps_log_out_on_one_line(chromium, site, viewport):  # noqa: F811
    context = _context(chromium, viewport)
    page = _login(context, site, "referee")
    page.goto(f"{site}/t/{SWISS_SLUG}/")
    rects = page.evaluate("document.querySelector('header.site form.inline button').getClientRects().length")
    assert rects == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    context.close()
