"""A club organiser (not a superuser) creates a tournament from the club-Swiss preset on a phone.

Drives Debian's chromium through Playwright against the live server: the preset
list, the options (only the chosen system's pairing options are shown, by CSS),
the tie-break picker with its live htmx preview, the confirmation, and the new
tournament's settings page. Marked ``browser``; skipped without /usr/bin/chromium.
"""

from __future__ import annotations

import pytest

from clubs.models import ClubRole, ClubRoleKind
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Official, OfficialRole, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
TIMEOUT = 15_000


def test_club_organiser_creates_a_club_swiss_on_a_phone(chromium, live_server):
    club = ClubFactory(name="Зарик", slug="zarik")
    user = UserFactory(username="clubber", password="zarik-club")
    ClubRole.objects.create(club=club, user=user, role=ClubRoleKind.ORGANISER)
    base = live_server.url
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB",
                                   extra_http_headers={"Accept-Language": "en"})  # fmt: skip
    page = context.new_page()
    visited: list[str] = []
    page.on("request", lambda request: visited.append(request.url))

    page.goto(f"{base}/accounts/login/?next=/organise/")
    page.fill("input[name=username]", "clubber")
    page.fill("input[name=password]", "zarik-club")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("main form button[type=submit]")
    page.click("text=New tournament")
    page.wait_for_selector("input[name=preset][value=club_swiss]", timeout=TIMEOUT)
    page.check("input[name=preset][value=club_swiss]")
    page.fill("#id_name", "Club Swiss on a phone")  # the first step: what every event needs
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("button[type=submit]:has-text('Next')")

    # Step 2: prefilled from the preset, editable; only the Swiss options are visible.
    assert page.input_value("#id_match_length") == "7"
    assert page.is_checked("#id_crawford")
    assert page.is_visible("#group-options-swiss") and not page.is_visible("#group-options-knockout")
    page.click("#group-pairing > summary")  # a closed group (issue 44): the first step asked the system
    page.select_option("#id_system", "knockout")
    assert page.is_visible("#group-options-knockout") and not page.is_visible("#group-options-swiss")
    page.select_option("#id_system", "swiss")
    page.fill("#id_rounds_planned", "6")

    # The tie-break picker (a closed group, issue 44): tick game points first; the preview follows.
    assert not page.is_visible("#id_tb__points")
    page.click("#group-tiebreaks > summary")
    with page.expect_response(lambda r: "tiebreak-preview" in r.url, timeout=TIMEOUT):
        page.check("#id_tb__points")
    with page.expect_response(lambda r: "tiebreak-preview" in r.url, timeout=TIMEOUT):
        page.fill("#id_tb__points__order", "1")
        page.press("#id_tb__points__order", "Tab")
    page.wait_for_selector("#tiebreak-preview table.tiebreak-preview th abbr", timeout=TIMEOUT)
    first_column = page.locator("#tiebreak-preview table.tiebreak-preview thead th abbr").first
    assert first_column.get_attribute("title") == "Points scored"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the options page scrolls sideways on a phone ({width}px)"

    with page.expect_navigation(timeout=TIMEOUT):
        page.click("button[name=step][value=options]")
    page.wait_for_selector("button[name=step][value=create]", timeout=TIMEOUT)
    assert "Club Swiss on a phone" in page.inner_text("main")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("button[name=step][value=create]")
    # On a phone the tab bar is the current step and a menu (issue 30).
    page.wait_for_selector("nav.tabs .tabs-current", timeout=TIMEOUT)
    assert "Settings" in page.inner_text("nav.tabs .tabs-current")

    t = Tournament.objects.get(name="Club Swiss on a phone")
    assert (t.club_id, t.system, t.match_length, t.rounds_planned) == (club.pk, "swiss", 7, 6)
    assert t.tiebreaks == ["points"]
    assert Official.objects.filter(tournament=t, user=user, role=OfficialRole.ORGANISER).exists()
    assert not [url for url in visited if "/admin/" in url]
    context.close()
