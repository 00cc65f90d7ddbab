"""A club organiser on a phone types "Semenov" on the members page and adds Семёнов (htmx search)."""

from __future__ import annotations

import pytest

from clubs.models import ClubRole, Membership
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
TIMEOUT = 15_000


def test_search_and_add_a_member_on_a_phone(chromium, live_server):
    club = ClubFactory(slug="zarik")
    user = UserFactory(username="boss")
    ClubRole.objects.create(club=club, user=user)
    semenov = PlayerFactory(last_name="Семёнов", first_name="Юрий", last_name_latin="", first_name_latin="")
    PlayerFactory(last_name="Симонов", first_name="Юрий")
    base = live_server.url

    ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB",
                               extra_http_headers={"Accept-Language": "en"})
    page = ctx.new_page()
    page.goto(f"{base}/accounts/login/?next=/clubs/zarik/members/")
    page.fill("input[name=username]", "boss")
    page.fill("input[name=password]", "zarik-test")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("main form button[type=submit]")
    assert page.url.endswith("/clubs/zarik/members/")

    page.locator("#q").press_sequentially("Semenov", delay=30)
    found = page.locator("#search-results li", has_text="Семёнов Юрий")
    found.wait_for(timeout=TIMEOUT)
    assert page.locator("#search-results li").count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the members page scrolls sideways on a phone ({width}px)"
    with page.expect_navigation(timeout=TIMEOUT):
        found.locator("button").click()
    page.locator("#members", has_text="Семёнов Юрий").wait_for(timeout=TIMEOUT)
    assert Membership.objects.get(club=club).player == semenov
    page.goto(f"{base}/clubs/zarik/")
    assert page.locator("#club-members", has_text="Семёнов").count() == 1
    ctx.close()
